import type { MessagesTable } from '../../store/schema.js';
import type { Db, Tx } from '../../store/store.js';
import type { StoredStreamEntry } from '../queries/stream.js';
import type { CredentialsNotice } from './credentialsNotice.js';

/**
 * What a change sets off beyond its own rows. A command records these inside its transaction (next to
 * the rows that cause them: an outbox event, a message that links somewhere); they are carried out only
 * once that transaction has committed, and never when it rolls back.
 */
export type Effect =
  /** An outbox event was written: wake the delivery worker, and tell the app's developer it is queued. */
  | { kind: 'deliverEvents'; appId: string; eventId: string }
  /** A new message links to `urls`: ask the apps for previews in the background. */
  | { kind: 'previewUrls'; message: MessagesTable; urls: readonly URL[] }
  /** Stream entries up to position `seq` were appended to the team's stream: tell every server process. */
  | { kind: 'streamNotice'; teamId: string; seq: number; entries?: StoredStreamEntry[] }
  /** A person's sessions or an app's secret ended: every server process checks the sockets that depend on them now. */
  | { kind: 'credentialsEnded'; notice: CredentialsNotice }
  /** Mail was queued (core/mail/outbox.ts): send it. */
  | { kind: 'sendMail' }
  /**
   * A direct message, a mention or a reply in a followed thread was stored: Web Push to the people
   * concerned (`followers`: of the reply's thread, but its sender) who have no stream open (core/push).
   */
  | { kind: 'pushMessage'; message: MessagesTable; followers: string[] };

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

/**
 * Carries out what a committed transaction recorded; the server wires it to its worker and background
 * work. `requestId`: the request that made the change, which the work it sets off names in its log lines.
 */
export type AfterCommit = (effects: readonly Effect[], requestId?: string) => void;

/** What a command needs to make a change through `runChange`. */
export interface ChangeContext {
  db: Db;
  afterCommit: AfterCommit;
  requestId?: string;
}

/** For writers outside a running server (the CLI, seeding): entries are stored, nobody is told at once. */
export const tellNobody: AfterCommit = () => undefined;

/**
 * Runs `change` in one transaction with a fresh `Effects`, then — only after the commit — hands what it
 * recorded to `ctx.afterCommit`. Every command that causes events, previews or notices writes through
 * here, so none of them hands work back to its caller to finish.
 */
export async function runChange<T>(
  ctx: ChangeContext,
  change: (tx: Tx, effects: Effects) => Promise<T>,
): Promise<T> {
  const effects = new Effects();
  const result = await ctx.db.transaction().execute((tx) => change(tx, effects));
  ctx.afterCommit(effects.list, ctx.requestId);
  return result;
}
