import type { FileInfoModel } from '@aviary/protocol';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { resolveReadableChat } from '../policies/chat.js';
import { visibleTo } from '../queries/messages.js';
import { presentFile } from './presentFile.js';

export interface FilesPage {
  files: Array<{ file: FileInfoModel; messageUid: string }>;
  nextCursor?: string;
}

/**
 * files.list: the files carried by the messages of a chat the reader can read (chat.fetchMessages'
 * rules, visibleTo included), the newest message first, `limit` messages a page; a file carried by
 * several messages of the page is listed once, with the newest.
 */
export async function listChatFiles(db: Db, reader: UsersTable, chat: string, page: { cursor?: string; limit?: number }): Promise<FilesPage> {
  const chatKey = await resolveReadableChat(db, reader, chat);
  const limit = page.limit ?? 50;
  let query = db
    .selectFrom('messages')
    .select(['uid', 'files'])
    .where('chat_key', '=', chatKey)
    .where('files', 'is not', null)
    .where(visibleTo(reader.id))
    .orderBy('uid', 'desc')
    .limit(limit + 1);
  if (page.cursor !== undefined) query = query.where('uid', '<', page.cursor);
  const messages = await query.execute();
  const shown = messages.slice(0, limit);
  const pairs = shown.flatMap((message) => (JSON.parse(message.files!) as FileInfoModel[]).map((file) => ({ id: file.id, messageUid: message.uid })));
  const ids = [...new Set(pairs.map((pair) => pair.id))];
  const rows = ids.length === 0 ? [] : await db.selectFrom('files').selectAll().where('id', 'in', ids).where('state', '=', 'stored').execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const listed = new Set<string>();
  const files = pairs.flatMap(({ id, messageUid }) => {
    const row = byId.get(id);
    if (!row || listed.has(id)) return [];
    listed.add(id);
    return [{ file: presentFile(row), messageUid }];
  });
  return { files, ...(messages.length > limit ? { nextCursor: shown[shown.length - 1].uid } : {}) };
}
