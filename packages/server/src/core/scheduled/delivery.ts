import { ApiError } from '../../errors.js';
import type { ScheduledMessagesTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import type { CoreContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { sendMessageInChange, type SendMessageInput } from '../commands/internal/messageSending.js';
import { releaseScheduledFiles } from '../files/attachFiles.js';
import { senderInStanding } from '../policies/senderStanding.js';

/** Due messages read in one pass at most; the next pass takes the rest. */
const PASS_LIMIT = 200;

/**
 * Sends the scheduled messages that are due, each exactly once whichever processes run passes at the
 * same time: one transaction claims the row (SKIP LOCKED on PostgreSQL, so a row another process is
 * sending is passed over rather than waited for), stores the message with every check of
 * chat.sendMessage, and marks the row sent on condition that it is still pending; either all of it
 * commits or none. A refusal (the sender left the channel, uninstalled the app…) marks it failed instead.
 * Returns how many this pass sent.
 */
export async function sendDueScheduledMessages(ctx: CoreContext): Promise<number> {
  const due = await ctx.db
    .selectFrom('scheduled_messages')
    .select('id')
    .where('status', '=', 'pending')
    .where('send_at', '<=', ctx.now())
    .orderBy('send_at')
    .limit(PASS_LIMIT)
    .execute();
  let sent = 0;
  for (const { id } of due) {
    try {
      if (await sendOne(ctx, id)) sent += 1;
    } catch (error) {
      // Not a refusal (the store failed…): left pending for the next pass; the others go on.
      ctx.log.warn({ err: error, scheduledMessage: id }, 'a scheduled message could not be sent now; the next pass tries again');
    }
  }
  await forgetSent(ctx);
  return sent;
}

/** Sent entries leave the list at once and the store after this long (their messages stay, of course). */
export const KEEP_SENT_MS = 7 * 24 * 60 * 60 * 1000;

async function forgetSent(ctx: CoreContext): Promise<void> {
  await ctx.db.deleteFrom('scheduled_messages').where('status', '=', 'sent').where('send_at', '<', ctx.now() - KEEP_SENT_MS).execute();
}

async function sendOne(ctx: CoreContext, id: string): Promise<boolean> {
  try {
    return await runChange(ctx, async (tx, effects) => {
      const row = await claimDue(ctx, tx, id);
      if (!row) return false;
      const sender = await senderInStanding(tx, row.sender_user_id, row.app_id);
      const params = JSON.parse(row.params) as SendMessageInput;
      const { message } = await sendMessageInChange(ctx, tx, effects, { user: sender, appId: row.app_id }, params);
      await tx
        .updateTable('scheduled_messages')
        .set({ status: 'sent', message_uid: message.uid, finished_at: ctx.now() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute();
      await releaseScheduledFiles(tx, id);
      return true;
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // Refused now: the refusal is what the sender sees in chat.listScheduledMessages.
    await runChange(ctx, async (tx) => {
      const failed = await tx
        .updateTable('scheduled_messages')
        .set({ status: 'failed', error_code: error.code, error_description: error.message, finished_at: ctx.now() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      // Its files go back to the sender alone: the failed entry only reports the refusal.
      if (Number(failed.numUpdatedRows) > 0) await releaseScheduledFiles(tx, id);
    });
    ctx.log.info({ scheduledMessage: id, error: error.code }, 'a scheduled message was refused at its time');
    return false;
  }
}

/** The row, if it is still pending and due and no other transaction holds it. */
async function claimDue(ctx: CoreContext, tx: Tx, id: string): Promise<ScheduledMessagesTable | undefined> {
  const query = tx.selectFrom('scheduled_messages').selectAll().where('id', '=', id).where('status', '=', 'pending').where('send_at', '<=', ctx.now());
  if (ctx.store.dialect === 'postgres') return query.forUpdate().skipLocked().executeTakeFirst();
  return query.executeTakeFirst();
}
