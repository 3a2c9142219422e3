import { pinLimits, type PinInfoModel } from '@aviary/protocol';
import { invalidParameter } from '../../errors.js';
import { lockName } from '../../store/rows/locks.js';
import { lockMessageChange } from '../../store/rows/messages.js';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { findVisibleMessage } from '../interactions/visibleMessage.js';
import { requireChangeable } from '../policies/messageChanges.js';
import { pinChanged } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';

/**
 * pins.add and pins.remove: whoever reads a message's chat (a member of its channel, a person of its
 * direct chat, a bot there) may pin it to that chat or unpin it. The change and its frame for the chat's
 * readers are one transaction; pinning a pinned message, or unpinning one that is not, sends nothing.
 */
export async function changePin(ctx: CommandContext, user: UsersTable, input: { messageUid: string; pinned: boolean }): Promise<PinInfoModel | undefined> {
  return runChange(ctx, async (tx, effects) => {
    await lockMessageChange(tx, input.messageUid, 'attach');
    const { row: message } = await findVisibleMessage(tx, user, input.messageUid);
    await requireChangeable(tx, message);
    const existing = await tx.selectFrom('pins').select(['pinned_by', 'pinned_at']).where('message_uid', '=', message.uid).executeTakeFirst();
    const now = ctx.now();
    if (input.pinned) {
      if (existing) return { by: existing.pinned_by, at: Number(existing.pinned_at) };
      await checkPinCap(tx, message);
      const pinned = await tx
        .insertInto('pins')
        .values({ message_uid: message.uid, chat_key: message.chat_key, team_id: message.team_id, pinned_by: user.id, pinned_at: now })
        .onConflict((conflict) => conflict.column('message_uid').doNothing())
        .returning('message_uid')
        .executeTakeFirst();
      if (!pinned) {
        // Someone pinned it a moment ago, after the look above (PostgreSQL): theirs is the pin, and its frame.
        const theirs = await tx.selectFrom('pins').select(['pinned_by', 'pinned_at']).where('message_uid', '=', message.uid).executeTakeFirstOrThrow();
        return { by: theirs.pinned_by, at: Number(theirs.pinned_at) };
      }
      await recordStreamEntries(tx, effects, message.team_id, [pinChanged(message, { added: true, userId: user.id, at: now })], now);
      return { by: user.id, at: now };
    }
    if (!existing) return undefined;
    const unpinned = await tx.deleteFrom('pins').where('message_uid', '=', message.uid).executeTakeFirst();
    // Unpinned a moment ago by someone else: their frame says so.
    if (Number(unpinned.numDeletedRows) === 0) return undefined;
    await recordStreamEntries(tx, effects, message.team_id, [pinChanged(message, { added: false, userId: user.id, at: now })], now);
    return undefined;
  });
}

/** Refuses a pin past the chat's cap. Pins of one chat take turns from here (PostgreSQL), so two at once cannot both pass a count of one short of it. */
async function checkPinCap(tx: Tx, message: MessagesTable): Promise<void> {
  await lockName(tx, `pins of ${message.chat_key}`);
  const { count } = await tx.selectFrom('pins').select((eb) => eb.fn.countAll().as('count')).where('chat_key', '=', message.chat_key).executeTakeFirstOrThrow();
  if (Number(count) >= pinLimits.maxPinsPerChat) {
    throw invalidParameter('messageUid', `This chat already has ${pinLimits.maxPinsPerChat} pinned messages, the most a chat takes; unpin one first (pins.remove).`);
  }
}
