import { sql, type Kysely } from 'kysely';
import type { DialectName } from './catalog.js';

/**
 * Migrations that ran under another name before names were fixed at release (0.10.0): merges renumbered
 * them after databases had recorded them. A database that records `from` has what `to` makes; the
 * migrator renames the record (after checking that the tables and columns are there) instead of failing
 * with "previously executed migration … is missing". Never add to this list: released migrations are
 * never renamed again (test/store/releasedMigrations.test.ts).
 */
export interface RenamedMigration {
  from: string;
  to: string;
  /** Tables and some of the columns the migration makes: present in a database that ran it. */
  makes: Record<string, readonly string[]>;
  /** Brings what an earlier text of the migration made up to what the released one makes. */
  repair?: (db: Kysely<any>, dialect: DialectName) => Promise<void>;
}

export const renamedMigrations: readonly RenamedMigration[] = [
  // Commit 85fe844 and the delivery branch until 46dd191.
  { from: '0005_listener_backoff', to: '0006_listener_backoff', makes: { apps: ['listener_retry_at', 'listener_retry_step', 'listener_unreachable'] } },
  // The stream branch, a559a82 until e1a6ff8.
  {
    from: '0006_stream',
    to: '0007_stream',
    makes: { teams: ['stream_seq'], stream_entries: ['team_id', 'seq'], stream_tickets: ['token_hash'], chat_reads: ['read_uid'] },
    // The first text of it (a559a82) indexed created_at and had no trigger moving the team's position.
    repair: async (db, dialect) => {
      await sql`drop index if exists stream_entries_created`.execute(db);
      if (dialect === 'sqlite') {
        await sql`create trigger if not exists stream_entries_position after insert on stream_entries begin update teams set stream_seq = new.seq where id = new.team_id; end`.execute(db);
      }
    },
  },
  // The dashboard branch, 94bdfc0 until 6e308b4.
  { from: '0006_secret_grace', to: '0008_secret_grace', makes: { apps: ['previous_secret', 'previous_secret_until'] } },
];
