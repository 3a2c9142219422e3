import type { AppSwitch, ChannelModel, StreamDataFrame, StreamDataFrameType, ThreadSummaryModel } from '@aviary/protocol';
import type { StreamEntryDraft } from '../../store/rows/streamEntries.js';
import type { MessagesTable, TeamRow, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { guestsReaching } from '../queries/guestReach.js';
import { presentMessage, presentMessageRef } from '../presenters/messages.js';
import { presentTeam } from '../presenters/teams.js';
import { presentPublicProfile } from '../presenters/users.js';
import { serializeAudience, type Audience } from './audience.js';

/** A frame's fields besides `type` and `cursor`, which the stream adds when it hands the entry out. */
export type FramePayload<T extends StreamDataFrameType> = Omit<Extract<StreamDataFrame, { type: T }>, 'type' | 'cursor'>;

export function entry<T extends StreamDataFrameType>(type: T, audience: Audience, payload: FramePayload<T>): StreamEntryDraft {
  return { type, audience: serializeAudience(audience), payload: JSON.stringify(payload) };
}

/** Who reads a message: the chat's readers, narrowed to the sender and the people listed when it is restricted. */
function messageAudience(message: MessagesTable): Audience {
  if (message.visible_to === null) return { to: 'chat', chat: message.chat_key };
  return { to: 'chat', chat: message.chat_key, only: [message.from_user_id, ...(JSON.parse(message.visible_to) as string[])] };
}

export const messageCreated = (message: MessagesTable): StreamEntryDraft =>
  entry('message.created', messageAudience(message), { message: presentMessage(message) });

export const messageUpdated = (message: MessagesTable): StreamEntryDraft =>
  entry('message.updated', messageAudience(message), { message: presentMessage(message) });

/** Those who saw the message: the frame names it, never its text. */
export const messageDeleted = (message: MessagesTable, deletedBy: string): StreamEntryDraft =>
  entry('message.deleted', messageAudience(message), { message: presentMessageRef(message), deletedBy });

export const reactionChanged = (message: MessagesTable, change: { added: boolean; emoji: string; userId: string }): StreamEntryDraft =>
  entry(change.added ? 'reaction.added' : 'reaction.removed', messageAudience(message), { message: presentMessageRef(message), emoji: change.emoji, userId: change.userId });

export const pinChanged = (message: MessagesTable, change: { added: boolean; userId: string; at: number }): StreamEntryDraft =>
  change.added
    ? entry('pin.added', messageAudience(message), { message: presentMessageRef(message), userId: change.userId, pinnedAt: change.at })
    : entry('pin.removed', messageAudience(message), { message: presentMessageRef(message), userId: change.userId });

/** A thread's summary reaches whoever reads its parent. */
export const threadUpdated = (root: MessagesTable, thread: ThreadSummaryModel): StreamEntryDraft =>
  entry('thread.updated', messageAudience(root), { message: presentMessageRef(root), thread });

/** A new reply, whole, for the people who follow its thread and read it (the sender excluded by the caller). */
export function followedReply(reply: MessagesTable, followers: readonly string[]): StreamEntryDraft {
  const readers = reply.visible_to === null ? undefined : new Set([reply.from_user_id, ...(JSON.parse(reply.visible_to) as string[])]);
  const only = readers ? followers.filter((id) => readers.has(id)) : [...followers];
  return entry('thread.followedReply', { to: 'chat', chat: reply.chat_key, only }, { message: presentMessage(reply) });
}

/** A person's own following and reading of a thread, for their other devices. */
export const threadFollowUpdated = (userId: string, root: MessagesTable, state: { following: boolean; readUpTo?: string }): StreamEntryDraft =>
  entry('thread.followUpdated', { to: 'users', users: [userId] }, { message: presentMessageRef(root), ...state });

export const channelCreated = (channel: ChannelModel, memberIds: readonly string[]): StreamEntryDraft =>
  entry('channel.created', { to: 'chat', chat: channel.id }, { channel, memberIds: [...memberIds] });

export const channelMembersAdded = (channel: ChannelModel, userIds: readonly string[]): StreamEntryDraft =>
  entry('channel.membersAdded', { to: 'chat', chat: channel.id }, { channel, userIds: [...userIds] });

/** The people removed receive it too: it is the last they hear of the channel. */
export const channelMembersRemoved = (channel: ChannelModel, userIds: readonly string[], newModerator: string | undefined): StreamEntryDraft =>
  entry(
    'channel.membersRemoved',
    { to: 'chat', chat: channel.id, also: userIds },
    { channel, userIds: [...userIds], ...(newModerator !== undefined ? { newModerator } : {}) },
  );

/** A team admin renamed, archived, unarchived or made private a channel: its members replace it whole. */
export const channelUpdated = (channel: ChannelModel): StreamEntryDraft => entry('channel.updated', { to: 'chat', chat: channel.id }, { channel });

export const appInstalled = (appId: string, userId: string): StreamEntryDraft => entry('app.installed', { to: 'users', users: [userId] }, { appId });

export const appUninstalled = (appId: string, userId: string): StreamEntryDraft => entry('app.uninstalled', { to: 'users', users: [userId] }, { appId });

/** The person's own switch reaches only them; a team admin's reaches the whole team. */
export function appSwitched(appId: string, input: { by: AppSwitch; disabled: boolean; userId: string }): StreamEntryDraft {
  const audience: Audience = input.by === 'team' ? { to: 'team' } : { to: 'users', users: [input.userId] };
  return entry(input.disabled ? 'app.disabled' : 'app.enabled', audience, { appId, by: input.by });
}

export const appDeleted = (appId: string): StreamEntryDraft => entry('app.deleted', { to: 'team' }, { appId });

/**
 * Everyone in the team shows the person's name, so everyone hears of a new one; but a guest only if they
 * meet the person (guestsReaching).
 */
export async function userUpdated(db: Db, row: UsersTable, now?: number): Promise<StreamEntryDraft> {
  const guests = await guestsReaching(db, row.team_id, row.id);
  return entry('user.updated', { to: 'people', guests }, { user: presentPublicProfile(row, now) });
}

/** Everyone in the team shows its name and icon, and its settings decide what they may do. */
export const teamUpdated = (team: TeamRow): StreamEntryDraft => entry('team.updated', { to: 'team' }, { team: presentTeam(team) });

export const chatRead = (userId: string, payload: FramePayload<'chat.read'>): StreamEntryDraft => entry('chat.read', { to: 'users', users: [userId] }, payload);

/** The person's own devices: their notification settings changed. */
export const notificationsChanged = (userId: string, settings: FramePayload<'notifications.changed'>['settings']): StreamEntryDraft =>
  entry('notifications.changed', { to: 'users', users: [userId] }, { settings });

/** Developer-scoped: the app's developer alone reads its delivery log. */
export const deliveryChanged = (developerId: string, payload: FramePayload<'delivery.changed'>): StreamEntryDraft =>
  entry('delivery.changed', { to: 'users', users: [developerId] }, payload);
