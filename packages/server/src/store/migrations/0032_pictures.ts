import type { Kysely } from 'kysely';

/**
 * Profile pictures and team icons (issue 25; docs/reference/pictures.md).
 *
 * - `pictures`: one row per picture made from an upload, resized to squares whose bytes live in the
 *   files storage (`<team>/pictures/<id>.<side>.webp`). `owner_kind` is `person` or `team`, `owner_id`
 *   the person's or the team's id: a new picture replaces the owner's last one, whose row and bytes go.
 *   The row says which team may see it; the picture's URL is `/pictures/<id>`.
 * - `teams.icon_url`: the team's icon (a /pictures URL), null for none. People's pictures go in the
 *   existing `users.profile_image`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pictures')
    .addColumn('id', 'text', (c) => c.notNull().primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('owner_kind', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pictures_by_owner').on('pictures').column('owner_id').execute();
  await db.schema.alterTable('teams').addColumn('icon_url', 'text').execute();
}
