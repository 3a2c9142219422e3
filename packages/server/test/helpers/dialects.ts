import pg from 'pg';

export type TestDialect = 'sqlite' | 'postgres';

export const postgresTestUrl = process.env.AVIARY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresTestUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    // Under CI a missing PostgreSQL is a failure, never a quiet skip.
    if (process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI=true but unreachable at ${postgresTestUrl}: ${String(error)}`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** SQLite always; PostgreSQL whenever one is reachable (and always under CI=true). */
export const dialects: TestDialect[] = (await postgresReachable()) ? ['sqlite', 'postgres'] : ['sqlite'];
