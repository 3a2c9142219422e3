import { broadcastOf, isUserId, type BroadcastWord } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { countChannelMembers } from '../queries/channels.js';

/** How a broadcast sits in a message's stored `mentions`, beside user ids (migration 0026). */
export const storedBroadcast = (word: BroadcastWord): string => `@${word}`;

/** The broadcast entries a stored `mentions` may hold: never shown as mentions (they are no user ids). */
export const isStoredBroadcast = (entry: string): boolean => entry === '@channel' || entry === '@here';

/**
 * The broadcast (`@channel`, `@here`) a message to a channel makes, checked: in a channel of more members
 * than the team's `broadcast_mention_limit` (when set), only a team admin may use one. Direct chats make
 * none. Read inside the sending transaction.
 */
export async function checkBroadcast(db: Db, sender: UsersTable, chatKey: string, text: string): Promise<BroadcastWord | undefined> {
  if (isUserId(chatKey) || chatKey.includes('|')) return undefined;
  const word = broadcastOf(text);
  if (word === undefined || sender.role === 'admin') return word;
  const team = await db.selectFrom('teams').select('broadcast_mention_limit').where('id', '=', sender.team_id).executeTakeFirstOrThrow();
  const limit = team.broadcast_mention_limit;
  if (limit === 0) return word;
  const members = await countChannelMembers(db, chatKey);
  if (members > limit) {
    throw new ApiError(
      'PermissionDenied',
      `@${word} notifies every member, and this channel has ${members}: in channels of more than ${limit} members only a team admin may use @channel and @here. ` +
        'Mention the people concerned by name instead.',
      { parameter: 'text' },
    );
  }
  return word;
}

/** A message's stored `mentions`: the user ids named, and its broadcast. */
export function mentionsWithBroadcast(mentions: string[] | undefined, word: BroadcastWord | undefined): string[] | undefined {
  if (word === undefined) return mentions;
  return [...(mentions ?? []), storedBroadcast(word)];
}
