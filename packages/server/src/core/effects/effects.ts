import type { MessagesTable } from '../../store/schema.js';
import type { Db, Tx } from '../../store/store.js';

/**
 * What a change sets off beyond its own rows. A command records these inside its transaction (next to
 * the rows that cause them: an outbox event, a message that links somewhere); they are carried out only
 * once that transaction has committed, and never when it rolls back.
 */
export type Effect =
  /** Outbox events were written: wake the delivery worker. */
  | { kind: 'deliverEvents' }
  /** A new message links to `urls`: ask the apps for previews in the background. */
  | { kind: 'previewUrls'; message: MessagesTable; urls: readonly URL[] };

/** The effects one transaction has recorded so far. */
export class Effects {
  private readonly recorded: Effect[] = [];

  add(effect: Effect): void {
    this.recorded.push(effect);
  }

  get list(): readonly Effect[] {
    return this.recorded;
  }
}

/** Carries out what a committed transaction recorded; the server wires it to its worker and background work. */
export type AfterCommit = (effects: readonly Effect[]) => void;

/**
 * Runs `change` in one transaction with a fresh `Effects`, then — only after the commit — hands what it
 * recorded to `ctx.afterCommit`. Every command that causes events, previews or notices writes through
 * here, so none of them hands work back to its caller to finish.
 */
export async function runChange<T>(
  ctx: { db: Db; afterCommit: AfterCommit },
  change: (tx: Tx, effects: Effects) => Promise<T>,
): Promise<T> {
  const effects = new Effects();
  const result = await ctx.db.transaction().execute((tx) => change(tx, effects));
  ctx.afterCommit(effects.list);
  return result;
}
