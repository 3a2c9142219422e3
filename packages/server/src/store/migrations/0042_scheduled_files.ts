import type { Kysely } from 'kysely';

/**
 * Files a scheduled message will carry (core/scheduled/scheduledMessages.ts). A file no message carries
 * yet is the uploader's alone and swept after config.files.orphanMs; a scheduled message may be sent
 * long after that, so a row here holds its file until the message is sent (message_files takes over),
 * cancelled, or refused at its time. The sweep and the removal of detached files pass over held files.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scheduled_files')
    .addColumn('scheduled_id', 'text', (c) => c.notNull())
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scheduled_files_pk', ['scheduled_id', 'file_id'])
    .execute();
  await db.schema.createIndex('scheduled_files_by_file').on('scheduled_files').column('file_id').execute();
}
