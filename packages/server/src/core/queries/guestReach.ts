import { inBatches } from '../../store/batches.js';
import { directChatKey, otherInDirectChat } from '../../store/rows/messages.js';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';

/**
 * Who a guest knows of. A guest is an outsider let into a few channels, so, as in Slack and Mattermost,
 * the team's roster stops at the people they meet: those who share a channel with them, and those they
 * have a direct chat with (a member may write to a guest first). Everyone else is not listed to them,
 * cannot be written to by them directly, and their profile changes do not reach them.
 */

/** Each membership (`mine`) beside every membership of the same channel (`other`). */
const comembers = (db: Db) => db.selectFrom('channel_members as mine').innerJoin('channel_members as other', 'other.channel_id', 'mine.channel_id');

/** The people (other than `userId`) who are members of a channel `userId` is a member of. */
async function channelPeers(db: Db, userId: string): Promise<string[]> {
  const rows = await comembers(db)
    .select('other.user_id')
    .distinct()
    .where('mine.user_id', '=', userId)
    .where('other.user_id', '!=', userId)
    .execute();
  return rows.map((row) => row.user_id);
}

/** The people `person` has a direct chat with: either side wrote in it. */
export async function directPartners(db: Db, person: Pick<UsersTable, 'id' | 'team_id'>): Promise<string[]> {
  const keys = await db
    .selectFrom('messages')
    .select('chat_key')
    .distinct()
    .where('team_id', '=', person.team_id)
    .where((eb) => eb.or([eb.and([eb('from_user_id', '=', person.id), eb('to_id', 'like', 'u:%')]), eb('to_id', '=', person.id)]))
    .execute();
  return keys.map(({ chat_key }) => otherInDirectChat(chat_key, person.id));
}

/** The people a guest may see and write to directly (bots aside: those follow the apps' rules). */
export async function guestReach(db: Db, guest: Pick<UsersTable, 'id' | 'team_id'>): Promise<Set<string>> {
  return new Set([...(await channelPeers(db, guest.id)), ...(await directPartners(db, guest))]);
}

/** The team's active guests who see `userId` (guestReach from their side): who hears of a change to them. */
export async function guestsReaching(db: Db, teamId: string, userId: string): Promise<string[]> {
  const guests = await db
    .selectFrom('users')
    .select('id')
    .where('team_id', '=', teamId)
    .where('role', '=', 'guest')
    .where('deactivated_at', 'is', null)
    .where('id', '!=', userId)
    .execute();
  if (guests.length === 0) return [];
  const peers = new Set(await channelPeers(db, userId));
  const unmet = guests.map((guest) => guest.id).filter((id) => !peers.has(id));
  const partners = new Set<string>();
  for (const batch of inBatches(unmet, 1)) {
    const keys = await db.selectFrom('messages').select('chat_key').distinct().where('chat_key', 'in', batch.map((id) => directChatKey(id, userId))).execute();
    for (const { chat_key } of keys) partners.add(otherInDirectChat(chat_key, userId));
  }
  return guests.map((guest) => guest.id).filter((id) => peers.has(id) || partners.has(id));
}

/** Whether a guest knows of `otherId` (guestReach, for one person). */
export async function guestMeets(db: Db, guest: Pick<UsersTable, 'id'>, otherId: string): Promise<boolean> {
  if (otherId === guest.id) return true;
  const shared = await comembers(db)
    .select('mine.channel_id')
    .where('mine.user_id', '=', guest.id)
    .where('other.user_id', '=', otherId)
    .limit(1)
    .executeTakeFirst();
  if (shared) return true;
  const chatted = await db.selectFrom('messages').select('uid').where('chat_key', '=', directChatKey(guest.id, otherId)).limit(1).executeTakeFirst();
  return chatted !== undefined;
}
