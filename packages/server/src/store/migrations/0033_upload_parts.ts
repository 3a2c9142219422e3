import type { Kysely } from 'kysely';

/**
 * Resumable uploads (issue 24; docs/reference/files.md "Resumable uploads").
 *
 * - `file_upload_parts`: the parts of a file uploaded with files.startUpload / files.uploadPart, each
 *   stored on its own under `storage_name` (a name of the server's, new for every part sent, so a part
 *   sent twice at once cannot overwrite the one recorded) until files.finishUpload joins them. `start`
 *   is the part's offset in the file; the parts of a file follow one another without gap or overlap.
 *
 * The file's own row is written by files.startUpload with `state` 'resumable' and `size` the size it
 * announced, which the team's quota counts from then on; the sweep removes it with its parts once it is
 * older than config.files.orphanMs and no message carries it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_upload_parts')
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('start', 'bigint', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('storage_name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_upload_parts_pk', ['file_id', 'start'])
    .execute();
}
