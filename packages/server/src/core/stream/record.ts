import { appendStreamEntries, isSqlite, type StreamEntryDraft } from '../../store/rows/streamEntries.js';
import type { Tx } from '../../store/store.js';
import type { Effects } from '../effects/effects.js';

/** The bus topic on which a team's new stream positions are announced. */
export const streamTopic = (teamId: string): string => `stream:${teamId}`;

/**
 * Appends what a change shows people to the team's stream, in the change's transaction, and records the
 * notice that goes out on the bus once it has committed. Call it last in the transaction: on PostgreSQL
 * an entry becomes readable once every older transaction has ended (store/rows/streamEntries.ts).
 */
export async function recordStreamEntries(tx: Tx, effects: Effects, teamId: string, drafts: readonly StreamEntryDraft[], now: number): Promise<void> {
  if (drafts.length === 0) return;
  const seq = await appendStreamEntries(tx, teamId, drafts, now);
  // SQLite's positions are consecutive: the entries can go to this process's feeds as they are.
  const entries = isSqlite(tx) ? drafts.map((draft, i) => ({ ...draft, seq: seq - drafts.length + 1 + i })) : undefined;
  effects.add({ kind: 'streamNotice', teamId, seq, entries });
}
