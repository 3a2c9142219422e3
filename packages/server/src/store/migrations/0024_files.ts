import type { Kysely } from 'kysely';

/**
 * Files (issue 24; docs/reference/files.md).
 *
 * - `files`: one row per uploaded file, written before its first byte is stored (`state` 'uploading')
 *   and marked 'stored' once every byte is, so the sweep finds an upload cut off halfway. `size` counts
 *   towards the team's quota once, whatever number of messages carry the file. `attached_at` is when a
 *   message first carried it: until then it is the uploader's alone, and swept after config.files.orphanMs.
 *   `renditions` is 'pending', 'ready' or 'none' for an image's thumbnail and preview.
 * - `message_files`: which messages carry which files (who may read a file: whoever sees such a
 *   message). Deleted with the message; a file no message carries any more is deleted with its bytes.
 * - `messages.files`: the files a message carries as the API shows them (JSON), so that reading a
 *   message, its stream frame and its event need no second query.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.notNull().primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('renditions', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('attached_at', 'bigint')
    .execute();
  await db.schema.createIndex('files_by_team').on('files').columns(['team_id', 'created_at']).execute();
  await db.schema.createIndex('files_unattached').on('files').columns(['attached_at', 'created_at']).execute();
  await db.schema
    .createTable('message_files')
    .addColumn('message_uid', 'text', (c) => c.notNull())
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('chat_key', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_files_pk', ['message_uid', 'file_id'])
    .execute();
  await db.schema.createIndex('message_files_by_file').on('message_files').column('file_id').execute();
  await db.schema.createIndex('message_files_by_chat').on('message_files').columns(['chat_key', 'message_uid']).execute();
  await db.schema.alterTable('messages').addColumn('files', 'text').execute();
}
