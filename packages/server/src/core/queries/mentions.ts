import { maxMentionsPage, type MessageModel } from '@aviary/protocol';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { presentMessage } from '../presenters/messages.js';
import { visibleTo } from './messages.js';
import { mentionsReader } from './unread.js';

const DEFAULT_PAGE = 50;

/**
 * chat.listMentions: messages from others that mention the reader (by name, or a broadcast in a channel
 * they are a member of), in the channels they are a member of and the direct chats written to them,
 * that they may see; newest first, by keyset on the uid (a ULID, so time order).
 */
export async function listMentions(
  db: Db,
  reader: UsersTable,
  page: { cursor?: string | undefined; limit?: number | undefined },
): Promise<{ messages: MessageModel[]; nextCursor?: string }> {
  const limit = Math.min(page.limit ?? DEFAULT_PAGE, maxMentionsPage);
  let query = db
    .selectFrom('messages')
    .selectAll()
    .where('team_id', '=', reader.team_id)
    .where('from_user_id', '!=', reader.id)
    .where('mentions', 'is not', null)
    .where((eb) =>
      eb.or([eb('to_id', '=', reader.id), eb('chat_key', 'in', eb.selectFrom('channel_members').select('channel_id').where('user_id', '=', reader.id))]),
    )
    .where(mentionsReader('mentions', reader.id))
    .where(visibleTo(reader.id));
  if (page.cursor !== undefined) query = query.where('uid', '<', page.cursor);
  const rows = await query.orderBy('uid', 'desc').limit(limit + 1).execute();
  const messages = rows.slice(0, limit).map(presentMessage);
  return rows.length > limit ? { messages, nextCursor: rows[limit - 1]!.uid } : { messages };
}
