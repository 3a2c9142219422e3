import pg from 'pg';
import { dialects, postgresTestUrl } from './helpers/dialects.js';

/**
 * Before the run: every test file makes and drops PostgreSQL schemas of its own, which leaves dead rows
 * in the catalogs of the test database. Where autovacuum is off they are never cleared, and each run
 * would be slower than the one before; so the run starts by vacuuming that database (under a second).
 */
export default async function vacuumTestDatabase(): Promise<void> {
  if (!dialects.includes('postgres')) return;
  const client = new pg.Client({ connectionString: postgresTestUrl, statement_timeout: 30_000 });
  await client.connect();
  try {
    await client.query('VACUUM');
  } finally {
    await client.end();
  }
}
