import { isUserId } from '@aviary/protocol';
import { ApiError, invalidParameter } from '../../errors.js';
import type { UsersTable } from '../../store/schema.js';
import { compiledOnce } from '../../store/compiledOnce.js';
import type { Db } from '../../store/store.js';
import { directChatKey } from '../../store/rows/messages.js';
import { guestMeets } from '../queries/guestReach.js';
import { appUseRefusal } from './apps.js';

/**
 * Who may post where and read what (docs/reference/methods.md). Membership is read from channel_members directly:
 * these rules must hold inside the transaction that stores a message, not only at the door.
 */


export interface Recipient {
  /** What the message's `to` holds: the user or channel id the sender named. */
  toId: string;
  chatKey: string;
}

const isBot = (user: UsersTable): boolean => user.bot_app_id !== null;

const unknownRecipient = (description: string): ApiError => new ApiError('UnknownRecipient', description, { parameter: 'to' });

/**
 * Checks `onBehalfOf`: only a bot names it, only for a channel, and only an active teammate who has
 * installed (and not disabled) the bot's app — the member whose standing lets the bot post there.
 */
export async function checkOnBehalfOf(db: Db, sender: UsersTable, to: string, onBehalfOf: string | undefined): Promise<void> {
  if (onBehalfOf === undefined) return;
  const botAppId = sender.bot_app_id;
  if (botAppId === null) {
    throw invalidParameter('onBehalfOf', 'onBehalfOf is only for bot tokens posting to a channel; a user token always posts as its own user.');
  }
  if (isUserId(to)) {
    throw invalidParameter('onBehalfOf', 'onBehalfOf applies only to channel messages; a bot sends direct messages as itself, so leave it out.');
  }
  const member = await db
    .selectFrom('users as u')
    .leftJoin('installs as i', (join) => join.onRef('i.user_id', '=', 'u.id').on('i.app_id', '=', botAppId))
    .select(['u.id', 'i.app_id as installedAppId', 'i.disabled_by_user as disabledByUser'])
    .where('u.id', '=', onBehalfOf)
    .where('u.team_id', '=', sender.team_id)
    .where('u.deactivated_at', 'is', null)
    .executeTakeFirst();
  if (!member) throw invalidParameter('onBehalfOf', `onBehalfOf ${onBehalfOf} is not an active user of this bot's team.`);
  // A team admin's switch was checked with the bot's token, which it would have refused.
  if (appUseRefusal({ disabledByTeam: false, installed: member.installedAppId !== null, disabledByUser: member.disabledByUser })) {
    throw invalidParameter(
      'onBehalfOf',
      `onBehalfOf ${onBehalfOf} has not installed this bot's app (or has disabled it); a bot may only post on behalf of a member who installed its app.`,
    );
  }
}

/**
 * Where the sender's message goes, or UnknownRecipient. A direct message may go to any active user of
 * the sender's team, bots included (a guest's, only to a person it meets: guestMeets). A person posts to a channel they are a member of; a bot is never a
 * member, so it posts through `onBehalfOf` (already checked by checkOnBehalfOf), who must be one.
 */
export async function resolveRecipient(db: Db, sender: UsersTable, to: string, onBehalfOf: string | undefined): Promise<Recipient> {
  if (isUserId(to)) {
    const recipient = await db
      .selectFrom('users')
      .select(['id', 'bot_app_id', 'first_name', 'last_name', 'deactivated_at'])
      .where('id', '=', to)
      .where('team_id', '=', sender.team_id)
      .executeTakeFirst();
    if (!recipient) throw unknownRecipient(`There is no active user ${to} in your team.`);
    if (recipient.deactivated_at !== null) {
      throw unknownRecipient(`${recipient.first_name} ${recipient.last_name}’s account (${to}) is deactivated: they no longer receive messages.`);
    }
    if (sender.role === 'guest' && recipient.bot_app_id === null && !(await guestMeets(db, sender, to))) {
      throw unknownRecipient(`As a guest you can write directly only to people who share a channel with you, or who wrote to you first; ${to} is neither.`);
    }
    return { toId: to, chatKey: directChatKey(sender.id, to) };
  }
  const poster = isBot(sender) ? onBehalfOf : sender.id;
  if (poster === undefined) {
    throw unknownRecipient(
      `A bot is not a member of any channel: to post to ${to}, pass onBehalfOf naming a member of the channel who installed the bot's app.`,
    );
  }
  const membership = await teamChannelMembership(db, { teamId: sender.team_id, channelId: to, userId: poster });
  if (membership.length > 0) {
    // An archived channel is read-only (a team admin archived it: channels.archive).
    if (membership[0].archived_at !== null) {
      throw new ApiError('ChannelArchived', `#${membership[0].name} is archived: it is read-only until a team admin unarchives it.`, { parameter: 'to' });
    }
  } else {
    throw unknownRecipient(
      poster === sender.id
        ? `There is no channel ${to} in your team of which you are a member.`
        : `There is no channel ${to} in this team of which ${poster} (onBehalfOf) is a member.`,
    );
  }
  return { toId: to, chatKey: to };
}

/** The key a chat's messages are stored under, as the reader names the chat (a user for a direct chat, or a channel), unchecked. */
export const chatKeyFor = (reader: Pick<UsersTable, 'id'>, chat: string): string => (isUserId(chat) ? directChatKey(reader.id, chat) : chat);

/**
 * The chat key of a chat the reader may read (chatKeyFor's), or UnknownChat. A direct chat with any user
 * of the reader's team (its history stays readable after they leave); a channel only while a member.
 */
export async function resolveReadableChat(db: Db, reader: UsersTable, chat: string): Promise<string> {
  if (isUserId(chat)) {
    const other = await db.selectFrom('users').select('id').where('id', '=', chat).where('team_id', '=', reader.team_id).executeTakeFirst();
    if (!other) throw new ApiError('UnknownChat', `There is no user ${chat} in your team to have a direct chat with.`, { parameter: 'chat' });
  } else if (!(await isMemberOfTeamChannel(db, reader.team_id, chat, reader.id))) {
    throw new ApiError('UnknownChat', `There is no channel ${chat} in your team of which you are a member.`, { parameter: 'chat' });
  }
  return chatKeyFor(reader, chat);
}

const teamChannelMembership = compiledOnce((db, p: { teamId: string; channelId: string; userId: string }) =>
  db
    .selectFrom('channel_members as m')
    .innerJoin('channels as c', 'c.id', 'm.channel_id')
    .select(['m.user_id', 'c.archived_at', 'c.name'])
    .where('m.channel_id', '=', p.channelId)
    .where('m.user_id', '=', p.userId)
    .where('c.team_id', '=', p.teamId),
);

async function isMemberOfTeamChannel(db: Db, teamId: string, channelId: string, userId: string): Promise<boolean> {
  const rows = await teamChannelMembership(db, { teamId, channelId, userId });
  return rows.length > 0;
}

/**
 * The ids among `userIds` that are not active users of the team, for `mentions` and `visibleTo`:
 * a message may only point at, or be shown to, people who can see it in the first place.
 */
export async function idsOutsideTeam(db: Db, teamId: string, userIds: readonly string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const found = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', [...new Set(userIds)])
    .where('team_id', '=', teamId)
    .where('deactivated_at', 'is', null)
    .execute();
  const known = new Set(found.map((row) => row.id));
  return userIds.filter((id) => !known.has(id));
}
