import type { CoreContext } from '../context.js';
import { sendDueScheduledMessages } from './delivery.js';

/** How often each process looks for due scheduled messages: a message goes out at most this late. */
export const SCHEDULED_POLL_MS = 1000;

export interface ScheduledSender {
  /** One pass that starts after this call (after any pass under way); resolves with how many it sent. */
  runOnce(): Promise<number>;
  /** No more passes; resolves once the one under way, if any, is over. */
  stop(): Promise<void>;
}

/**
 * The background job that sends scheduled messages (delivery.ts): every process runs it, each pass
 * claims rows one by one, so two processes never send one message twice. Passes never overlap within a
 * process; the timer skips a tick while one runs.
 */
export function startScheduledSender(ctx: CoreContext, pollMs = SCHEDULED_POLL_MS): ScheduledSender {
  let queue: Promise<unknown> = Promise.resolve();
  let busy = false;
  const pass = async (): Promise<number> => {
    busy = true;
    try {
      return await sendDueScheduledMessages(ctx);
    } catch (error) {
      ctx.log.warn({ err: error }, 'sending scheduled messages failed; the next pass tries again');
      return 0;
    } finally {
      busy = false;
    }
  };
  const runOnce = (): Promise<number> => {
    const next = queue.then(pass);
    queue = next;
    return next;
  };
  const timer = setInterval(() => {
    if (!busy) void runOnce();
  }, pollMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await queue;
    },
  };
}
