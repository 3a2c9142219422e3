import { reactionLimits, type MessageModel as Message, type MessageReactionModel, type StreamDataFrame } from '@aviary/protocol';

export interface ReactionChange {
  emoji: string;
  userId: string;
  added: boolean;
}

/** The change a `reaction.added` or `reaction.removed` frame tells, for the message it names; undefined for any other frame. */
export function reactionChangeOf(frame: StreamDataFrame): (ReactionChange & { uid: string }) | undefined {
  if (frame.type !== 'reaction.added' && frame.type !== 'reaction.removed') return undefined;
  return { uid: frame.message.uid, emoji: frame.emoji, userId: frame.userId, added: frame.type === 'reaction.added' };
}

/**
 * A message's reactions after one change, as a reaction frame (or the person's own click) tells it.
 * The same change twice changes nothing: the person's own is known by `me`, others' by the names shown
 * (complete while the count is within them). So the person's click, shown at once, is not counted again
 * when its frame comes.
 */
export function applyReaction(message: Message, change: ReactionChange, me: string): Message {
  const reactions = message.reactions ?? [];
  const index = reactions.findIndex((reaction) => reaction.emoji === change.emoji);
  const current: MessageReactionModel = reactions[index] ?? { emoji: change.emoji, count: 0, userIds: [], me: false };
  const mine = change.userId === me;
  const named = current.userIds.includes(change.userId);
  const allNamed = current.count <= current.userIds.length;
  if (change.added ? (mine ? current.me : named) : mine ? !current.me : !named && allNamed) return message;
  const next: MessageReactionModel = change.added
    ? {
        emoji: change.emoji,
        count: current.count + 1,
        userIds: mine ? [me, ...current.userIds].slice(0, reactionLimits.maxUserIdsShown) : current.userIds.length < reactionLimits.maxUserIdsShown ? [...current.userIds, change.userId] : current.userIds,
        me: current.me || mine,
      }
    : { emoji: change.emoji, count: current.count - 1, userIds: current.userIds.filter((id) => id !== change.userId), me: mine ? false : current.me };
  const list = index < 0 ? [...reactions, next] : reactions.map((reaction, at) => (at === index ? next : reaction));
  const kept = list.filter((reaction) => reaction.count > 0);
  const { reactions: _dropped, ...rest } = message;
  return kept.length > 0 ? { ...rest, reactions: kept } : rest;
}

/** "Ada, Bob and 3 others": who reacted, as the pill's tooltip and label say it. */
export function reactorsText(reaction: MessageReactionModel, nameOf: (userId: string) => string, me: string): string {
  const names = reaction.userIds.map((id) => (id === me ? 'you' : nameOf(id)));
  const others = reaction.count - names.length;
  if (others > 0) names.push(`${others} other${others === 1 ? '' : 's'}`);
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
