import type { ServerContext } from '../../context.js';
import { drainSearchQueue } from '../../core/search/searchQueue.js';

/** How long a new message waits at most, with nobody searching, before the background drain indexes it. */
export const SEARCH_DRAIN_EVERY_MS = 1000;

export interface SearchIndexer {
  /** Drains the queue now; resolves when the drain under way (this one or an earlier one) is over. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Indexes the messages the insert trigger queued (core/search/searchQueue.ts) every
 * SEARCH_DRAIN_EVERY_MS, so the queue stays short even when nobody searches; a search drains it itself
 * first. One drain at a time in a process; on PostgreSQL the processes' drains take turns.
 */
export function startSearchIndexer(ctx: Pick<ServerContext, 'db' | 'log'>): SearchIndexer {
  let running: Promise<void> | undefined;
  const drain = () =>
    (running ??= (async () => {
      try {
        await drainSearchQueue(ctx.db);
      } catch (error) {
        ctx.log.warn({ err: error }, 'indexing queued messages for search failed; the next drain tries again');
      } finally {
        running = undefined;
      }
    })());
  const timer = setInterval(() => void drain(), SEARCH_DRAIN_EVERY_MS);
  timer.unref();
  return {
    drain,
    /** No more drains after one last, so that a process stopping leaves no message unindexed. */
    async stop() {
      clearInterval(timer);
      await running;
      await drain();
    },
  };
}
