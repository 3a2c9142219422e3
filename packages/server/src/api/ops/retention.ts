import type { ServerContext } from '../../context.js';
import { pruneAuditLog } from '../../core/audit/prune.js';
import { pruneMailOutbox } from '../../core/mail/prune.js';
import { pruneExpiredMessages } from '../../core/retention/pruneMessages.js';
import { pruneExpiredResponseUrls } from '../../core/responses/responseUrls.js';
import { pruneFinishedEvents } from '../../events/outbox/retention.js';
import { sweepOrphanFiles } from '../../core/files/fileCommands.js';

/** How often each process deletes what is past its retention (every process may: the deletes are batched and idempotent). */
const RETENTION_EVERY_MS = 60 * 60 * 1000;

export interface RetentionJob {
  /** One pass now; what it deleted is in the metrics and, when anything, in the log. */
  runOnce(): Promise<void>;
  /** No more passes; resolves once the one under way, if any, is over. */
  stop(): Promise<void>;
}

/** The background job of docs/operations.md "Retention": finished events and their attempts, messages past their team's or channel's retention, expired response URLs, audit log rows past AVIARY_AUDIT_RETENTION_DAYS, mail sent or given up a week ago, files no message carries (docs/reference/files.md "Orphans"). */
export function startRetentionJob(ctx: Pick<ServerContext, 'db' | 'now' | 'log' | 'metrics' | 'config'>): RetentionJob {
  let running: Promise<void> | undefined;
  const runOnce = () =>
    (running ??= (async () => {
      try {
        const events = await pruneFinishedEvents(ctx.db, ctx.now());
        ctx.metrics.countRetentionDeleted('events', events.events);
        ctx.metrics.countRetentionDeleted('event_attempts', events.attempts);
        if (events.events > 0) ctx.log.info(events, 'deleted events past their retention');
        const pruned = await pruneExpiredMessages(ctx, ctx.now());
        ctx.metrics.countRetentionDeleted('messages', pruned.messages);
        ctx.metrics.countRetentionDeleted('files', pruned.files);
        if (pruned.messages > 0) ctx.log.info(pruned, 'deleted messages past their retention');
        ctx.metrics.countRetentionDeleted('response_urls', await pruneExpiredResponseUrls(ctx.db, ctx.now()));
        ctx.metrics.countRetentionDeleted('audit', await pruneAuditLog(ctx.db, ctx.now(), ctx.config.auditRetentionDays));
        ctx.metrics.countRetentionDeleted('mail', await pruneMailOutbox(ctx.db, ctx.now()));
        // Uploads never sent (the files of the messages just deleted went with them).
        ctx.metrics.countRetentionDeleted('files', await sweepOrphanFiles(ctx));
      } catch (error) {
        ctx.log.warn({ err: error }, 'the retention job failed; it runs again within the hour');
      } finally {
        running = undefined;
      }
    })());
  const timer = setInterval(() => void runOnce(), RETENTION_EVERY_MS);
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
