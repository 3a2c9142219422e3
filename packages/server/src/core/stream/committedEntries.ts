import type { StoredStreamEntry } from '../queries/stream.js';

/** Teams whose latest entries are kept, and entries kept per team: a few moments of traffic. */
const TEAMS = 256;
const ENTRIES_PER_TEAM = 128;

/**
 * The stream entries this process has just committed, kept in memory for a moment so that the team's
 * feed (api/stream/teamFeed.ts) hands them out without reading back what the transaction wrote. Only
 * where positions are consecutive (SQLite: one writer, a counter): a run that starts right after what a
 * feed read and reaches what was announced is the whole of what it would read. Anything else — a gap,
 * another process's entries (the CLI), PostgreSQL's positions — is read from the store as before.
 */
export class CommittedEntries {
  private readonly byTeam = new Map<string, StoredStreamEntry[]>();

  remember(teamId: string, entries: readonly StoredStreamEntry[]): void {
    const kept = this.byTeam.get(teamId) ?? [];
    this.byTeam.delete(teamId);
    kept.push(...entries);
    kept.sort((a, b) => a.seq - b.seq);
    this.byTeam.set(teamId, kept.length > ENTRIES_PER_TEAM ? kept.slice(-ENTRIES_PER_TEAM) : kept);
    if (this.byTeam.size > TEAMS) this.byTeam.delete(this.byTeam.keys().next().value!);
  }

  /**
   * The entries after position `after` up to `upTo`, if every one of them is here, one position after
   * another; else undefined (read them from the store).
   */
  between(teamId: string, after: number, upTo: number): StoredStreamEntry[] | undefined {
    const kept = this.byTeam.get(teamId);
    const start = kept?.findIndex((entry) => entry.seq === after + 1) ?? -1;
    if (!kept || start < 0) return undefined;
    const run: StoredStreamEntry[] = [];
    for (let i = start; i < kept.length && kept[i].seq <= upTo; i++) {
      if (kept[i].seq !== after + 1 + run.length) return undefined;
      run.push(kept[i]);
    }
    return run.length > 0 && run.at(-1)!.seq === upTo ? run : undefined;
  }
}
