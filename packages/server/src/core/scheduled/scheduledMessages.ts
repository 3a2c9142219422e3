import { MAX_SCHEDULE_AHEAD_MS, type api, type ParamsOf, type ScheduledMessage } from '@aviary/protocol';
import type { Static } from '@sinclair/typebox';
import { invalidParameter } from '../../errors.js';
import { newUlid } from '../../store/ids.js';
import { lockName } from '../../store/rows/locks.js';
import type { ScheduledMessagesTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { checkSendable, type SendMessageInput } from '../commands/internal/messageSending.js';
import { holdScheduledFiles, releaseScheduledFiles } from '../files/attachFiles.js';
import { checkContent } from '../messageContent.js';

/**
 * chat.scheduleMessage, chat.listScheduledMessages, chat.deleteScheduledMessage (an Aviary extension).
 * A scheduled message belongs to its sender and the app it came through (null for a person's session):
 * only that pair lists or cancels it. Its files are checked when it is scheduled and held from the sweep
 * until it is sent, cancelled or refused (holdScheduledFiles). Sending it is delivery.ts's.
 */

export type ScheduleInput = ParamsOf<typeof api.chat.scheduleMessage>;
export type ScheduledMessageModel = Static<typeof ScheduledMessage>;

/** Whose scheduled messages a caller sees: their own, through the same app. */
export interface ScheduleOwner {
  user: UsersTable;
  appId: string | null;
}

export async function scheduleMessage(ctx: CommandContext, owner: ScheduleOwner, input: ScheduleInput): Promise<ScheduledMessagesTable> {
  const { sendAt, ...message } = input;
  const now = ctx.now();
  if (sendAt <= now) throw invalidParameter('sendAt', `sendAt must be in the future (the server’s time is ${now} ms since the epoch); to send now, call chat.sendMessage.`);
  if (sendAt > now + MAX_SCHEDULE_AHEAD_MS) throw invalidParameter('sendAt', 'sendAt may be at most 120 days ahead.');
  // What would be refused now is refused now; the same checks run again at sendAt.
  const content = checkContent(message, owner.appId);
  return runChange(ctx, async (tx) => {
    const { files } = await checkSendable(tx, owner, message, content);
    // One owner's schedulings take turns from the count, so two at once cannot both pass it one short of the cap.
    await lockName(tx, `scheduled by ${owner.user.id}|${owner.appId ?? ''}`);
    const waiting = await ownersPending(tx, owner).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (Number(waiting.n) >= MAX_PENDING) {
      throw invalidParameter('sendAt', `You have ${MAX_PENDING} scheduled messages waiting; delete some (chat.deleteScheduledMessage) first.`);
    }
    const row: ScheduledMessagesTable = {
      id: `sm_${newUlid(now)}`,
      team_id: owner.user.team_id,
      sender_user_id: owner.user.id,
      app_id: owner.appId,
      to_id: message.to,
      params: JSON.stringify(message satisfies SendMessageInput),
      send_at: sendAt,
      status: 'pending',
      message_uid: null,
      error_code: null,
      error_description: null,
      created_at: now,
      finished_at: null,
    };
    await tx.insertInto('scheduled_messages').values(row).execute();
    await holdScheduledFiles(tx, row.id, files ?? [], now);
    return row;
  });
}

/** The owner's messages still to send and those that failed, soonest first (sent ones leave the list). */
export async function listScheduledMessages(db: Db, owner: ScheduleOwner, to: string | undefined): Promise<ScheduledMessagesTable[]> {
  let query = db
    .selectFrom('scheduled_messages')
    .selectAll()
    .where('sender_user_id', '=', owner.user.id)
    .where('status', 'in', ['pending', 'failed'])
    .orderBy('send_at')
    .orderBy('id')
    .limit(2 * MAX_PENDING);
  query = owner.appId === null ? query.where('app_id', 'is', null) : query.where('app_id', '=', owner.appId);
  if (to !== undefined) query = query.where('to_id', '=', to);
  return query.execute();
}

/** Messages one sender (through one app) may have waiting at once. */
export const MAX_PENDING = 1000;

function ownersPending(db: Db, owner: ScheduleOwner) {
  const query = db.selectFrom('scheduled_messages').where('sender_user_id', '=', owner.user.id).where('status', '=', 'pending');
  return owner.appId === null ? query.where('app_id', 'is', null) : query.where('app_id', '=', owner.appId);
}

/**
 * Cancels a pending message or clears a failed one. Conditional on the status it was read with: a message
 * the sender is sending at this very moment is either sent (and the delete refused) or deleted (and never sent).
 */
export async function deleteScheduledMessage(ctx: CommandContext, owner: ScheduleOwner, { id }: { id: string }): Promise<void> {
  await runChange(ctx, async (tx) => {
    let query = tx.deleteFrom('scheduled_messages').where('id', '=', id).where('sender_user_id', '=', owner.user.id).where('status', 'in', ['pending', 'failed']);
    query = owner.appId === null ? query.where('app_id', 'is', null) : query.where('app_id', '=', owner.appId);
    const result = await query.executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) {
      throw invalidParameter('id', `You have no scheduled message ${id} waiting to be sent: it was sent already, deleted, or is not yours.`);
    }
    await releaseScheduledFiles(tx, id);
  });
}

export function presentScheduledMessage(row: ScheduledMessagesTable): ScheduledMessageModel {
  const params = JSON.parse(row.params) as SendMessageInput;
  return {
    id: row.id,
    to: row.to_id,
    text: params.text,
    sendAt: row.send_at,
    status: row.status,
    ...(row.app_id !== null ? { appId: row.app_id } : {}),
    ...(params.files?.length ? { files: params.files } : {}),
    ...(row.message_uid !== null ? { messageUid: row.message_uid } : {}),
    ...(row.error_code !== null ? { error: { code: row.error_code, description: row.error_description ?? '' } } : {}),
    createdAt: row.created_at,
  };
}
