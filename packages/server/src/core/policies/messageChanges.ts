import { ApiError } from '../../errors.js';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { noSuchMessage } from '../interactions/visibleMessage.js';

/** Who changes a message: the token's user or bot and the token's app, or a person for themselves (no app). */
export interface MessageChanger {
  user: UsersTable;
  appId: string | null;
  kind: 'user' | 'bot' | 'person';
}

/** A team admin signed in: deletes any message they can see, and is never held to the edit window. */
export const isSignedInAdmin = (changer: MessageChanger): boolean => changer.kind === 'person' && changer.user.role === 'admin';

/**
 * The team's edit window (team.updateSettings' messageEditWindowMinutes): people may edit and delete
 * their own messages only this long after sending them. Team admins are not held to it, nor are bots,
 * whose messages (a poll's tally, a build's status) are kept up to date by their apps.
 */
export async function checkEditWindow(db: Db, changer: MessageChanger, message: Pick<MessagesTable, 'uid' | 'timestamp'>, now: number, verb: 'edit' | 'delete'): Promise<void> {
  if (changer.kind === 'bot' || changer.user.role === 'admin') return;
  const team = await db.selectFrom('teams').select('message_edit_window_ms').where('id', '=', changer.user.team_id).executeTakeFirstOrThrow();
  const windowMs = team.message_edit_window_ms;
  if (windowMs === 0 || now - message.timestamp <= windowMs) return;
  throw new ApiError(
    'PermissionDenied',
    `Message ${message.uid} was sent more than ${windowMs / 60_000} minutes ago, the team's window for people to ${verb} their messages; a team admin may still delete it.`,
    { parameter: 'messageUid' },
  );
}

/**
 * Throws unless the message takes changes (edits, deletions, reactions, pins). A deleted message takes
 * none: a thread's parent stays as an emptied placeholder for its replies, and is "no such message" here
 * as everywhere else. Nor does a message of an archived channel, which is read-only until a team admin
 * unarchives it (channels.archive): 409 ChannelArchived.
 */
export async function requireChangeable(db: Db, message: Pick<MessagesTable, 'uid' | 'chat_key' | 'deleted_at'>): Promise<void> {
  if (message.deleted_at !== null) throw noSuchMessage(message.uid);
  if (message.chat_key.includes('|')) return;
  const channel = await db.selectFrom('channels').select(['name', 'archived_at']).where('id', '=', message.chat_key).executeTakeFirst();
  if (channel && channel.archived_at !== null) {
    throw new ApiError('ChannelArchived', `#${channel.name} is archived: its messages take no edits, deletions, reactions or pins until a team admin unarchives it.`, { parameter: 'messageUid' });
  }
}
