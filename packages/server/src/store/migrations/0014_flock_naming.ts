import type { Kysely } from 'kysely';

/** An app's Flock-compatible naming (docs/flock-compatibility.md): 1 when its events and URLs also carry Flock's names. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apps').addColumn('flock_naming', 'integer', (column) => column.notNull().defaultTo(0)).execute();
}
