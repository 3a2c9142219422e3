import type { Bus } from '../bus/bus.js';
import type { Config } from '../config.js';
import type { EventsContext } from '../events/context.js';
import type { Db } from '../store/store.js';
import { tellNobody, type AfterCommit, type ChangeContext } from './effects/effects.js';
import type { CommittedEntries } from './stream/committedEntries.js';
import type { OnlinePeople } from './push/onlinePeople.js';
import type { BackgroundWork } from './triggers/backgroundWork.js';

/**
 * The convention of core/commands (docs/ARCHITECTURE.md, "Commands"): every exported command is
 * `(ctx, actor, params)` — a context (a CoreContext, or the part of one it uses, at least a
 * CommandContext), who acts (a person's row, a MessageChanger, an AdminActor, an AuditActor such as
 * cliActor…), and one params object — and makes its change in its own transaction through `runChange`,
 * its audit row included. Reads are queries (core/queries/**), not commands; the in-transaction building
 * blocks that commands share stay module-local or in core/commands/internal/**, never for handlers.
 * Seeding the demo and pruning the stream are maintenance jobs, not commands: they keep `(db, …)`.
 */
export type CommandContext = ChangeContext & { now: () => number };

/**
 * A CommandContext on the store alone, where nobody is told after a commit: for writers outside a running
 * server (seeding, scripts, tests) and for commands that record no effect.
 */
export const storeContext = (db: Db, now: () => number = Date.now): CommandContext => ({ db, now, afterCommit: tellNobody });

/** What commands, policies and interactions take: the event code's needs, the configuration, background work. */
export interface CoreContext extends EventsContext {
  config: Config;
  /** Work started after a request was answered (URL previews); shutdown waits for it. */
  background: BackgroundWork;
  /** Carries out what a committed change recorded (core/effects.ts). */
  afterCommit: AfterCommit;
  /** Notices between server processes (in memory for one process, Redis for several). */
  bus: Bus;
  /** The stream entries this process just committed, for its feeds (core/stream/committedEntries.ts). */
  committedEntries?: CommittedEntries;
  /** Where this process listens (http://127.0.0.1:8080), once it does: the base of the URLs it hands out without AVIARY_PUBLIC_URL. */
  listeningUrl?: string;
  /** Who is online, across processes (the stream's presence), once the stream gateway runs: Web Push skips them. */
  presence?: OnlinePeople;
}
