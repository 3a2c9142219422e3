import { canonicalEmoji, isEmoji, reactionLimits } from '@aviary/protocol';
import { invalidParameter } from '../../errors.js';
import { lockName } from '../../store/rows/locks.js';
import { lockMessageChange } from '../../store/rows/messages.js';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { requireChangeable, type MessageChanger } from '../policies/messageChanges.js';
import { presentMessageRef } from '../presenters/messages.js';
import { findReactableMessage, listReactions, type MessageReactions } from '../queries/reactions.js';
import { reactionChanged } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import { enqueueMessageChangeEvents } from '../triggers/messageEvents.js';

/** Who reacts: a person (their session or a user token), or an app's bot; `appId`: the token's app, if any. */
export type Reactor = MessageChanger;

/**
 * reactions.add and reactions.remove: one reaction added or taken back, with its frame for the message's
 * readers and the events of the apps the message concerns, in one transaction. Adding a reaction that is
 * already there, or removing one that is not, changes nothing and sends nothing.
 */
export async function changeReaction(ctx: CommandContext, reactor: Reactor, input: { messageUid: string; emoji: string; added: boolean }): Promise<MessageReactions> {
  const emoji = checkEmoji(input.emoji);
  await runChange(ctx, async (tx, effects) => {
    await lockMessageChange(tx, input.messageUid, 'attach');
    const message = await findReactableMessage(tx, reactor.user, input.messageUid);
    await requireChangeable(tx, message);
    const now = ctx.now();
    const changed = input.added ? await addRow(tx, message, reactor.user, emoji, now) : await removeRow(tx, message.uid, reactor.user.id, emoji);
    if (!changed) return;
    const event = { name: input.added ? ('chat.reactionAdded' as const) : ('chat.reactionRemoved' as const), userId: reactor.user.id, message: presentMessageRef(message), emoji };
    await enqueueMessageChangeEvents(tx, effects, message, { event, byAppId: reactor.appId }, now);
    await recordStreamEntries(tx, effects, message.team_id, [reactionChanged(message, { added: input.added, emoji, userId: reactor.user.id })], now);
  });
  return listReactions(ctx.db, reactor.user, input.messageUid);
}

function checkEmoji(value: string): string {
  const emoji = canonicalEmoji(value);
  if (!isEmoji(emoji)) {
    throw invalidParameter('emoji', `emoji must be one native Unicode emoji such as 👍 or 🎉 (a sequence such as 👍🏽 counts as one), not ${JSON.stringify(value.slice(0, 40))}; names such as :thumbsup: are not taken.`);
  }
  return emoji;
}

/** Adds the reaction, unless it would pass the message's cap of different emoji. Additions to one message take turns from the count (PostgreSQL), so two new emoji at once cannot both pass a count of one short of it. */
async function addRow(tx: Tx, message: MessagesTable, user: UsersTable, emoji: string, now: number): Promise<boolean> {
  await lockName(tx, `reactions to ${message.uid}`);
  const existing = await tx.selectFrom('reactions').select('emoji').distinct().where('message_uid', '=', message.uid).execute();
  const emojiKnown = existing.some((row) => row.emoji === emoji);
  if (!emojiKnown && existing.length >= reactionLimits.maxDistinctEmoji) {
    throw invalidParameter('emoji', `Message ${message.uid} already has ${reactionLimits.maxDistinctEmoji} different reactions, the most a message takes; react with one of those.`);
  }
  const inserted = await tx
    .insertInto('reactions')
    .values({ message_uid: message.uid, emoji, user_id: user.id, team_id: message.team_id, created_at: now })
    .onConflict((conflict) => conflict.columns(['message_uid', 'emoji', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

async function removeRow(tx: Tx, messageUid: string, userId: string, emoji: string): Promise<boolean> {
  const deleted = await tx.deleteFrom('reactions').where('message_uid', '=', messageUid).where('emoji', '=', emoji).where('user_id', '=', userId).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
