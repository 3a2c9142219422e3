/**
 * Run by make.sh inside an earlier version's source tree, on a store that version's `aviary seed --demo`
 * filled: signs one person in through that version's own code (a session the upgrade test uses), then
 * gives every table still empty one row, with only the columns that version's table has. Prints what the
 * upgrade test needs to know about the store as JSON on stdout.
 *
 * Usage: tsx fill.ts <data dir> [<database url>] < demo-credentials.json
 * The imports name this version's modules by the paths they have had since the first release with a
 * demo seed; a later move of them needs a change here, not in the fixtures already made.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { signIn } from '../../src/core/commands/sessions.js';
import { openStore } from '../../src/store/store.js';

const [dataDir, databaseUrl] = process.argv.slice(2);
const demo = JSON.parse(readFileSync(0, 'utf8'));
const madeAt = Date.now();
const store = openStore({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
const db = store.db as any;

try {
  const person = demo.users[0];
  // Earlier versions answered the session token alone; later ones within an outcome. Earlier versions took
  // (db, input); later ones take a command's (ctx, actor, params).
  const signInOf: any = signIn;
  const credentials = { email: person.email, password: person.password };
  const signedIn: any =
    signInOf.length === 2
      ? await signInOf(store.db, { ...credentials, now: madeAt })
      : await signInOf({ db: store.db, now: () => madeAt, afterCommit: () => undefined }, {}, credentials);
  const sessionToken: string = signedIn.sessionToken;
  if (!sessionToken) throw new Error(`signing ${person.email} in failed: ${JSON.stringify(signedIn)}`);

  const team = await db.selectFrom('teams').selectAll().executeTakeFirstOrThrow();
  const message = await db.selectFrom('messages').selectAll().orderBy('uid').executeTakeFirstOrThrow();
  const eventId = '01KFIXTUREEVENT0000000000';
  const rows: Record<string, () => Promise<Record<string, unknown>>> = {
    events: async () => ({
      id: eventId, app_id: demo.app.id, user_id: person.id, name: 'client.messageCreated',
      payload: JSON.stringify({ type: 'client.messageCreated', messageUid: message.uid }), synchronous: 0, status: 'delivered',
      retry_num: 1, next_attempt_at: null, last_reason: null, last_error: null, delivered_at: madeAt, claimed_until: null,
      claim_token: null, created_at: madeAt, updated_at: madeAt,
    }),
    event_attempts: async () => ({
      id: '01KFIXTUREATTEMPT00000000', event_id: eventId, app_id: demo.app.id, retry_num: 0, started_at: madeAt, duration_ms: 12,
      status: 200, reason: null, error: null, response_snippet: '{"ok":true}', outcome: 'delivered',
    }),
    stream_entries: async () => ({
      team_id: team.id, seq: Number(team.stream_seq ?? 0) + 1, type: 'message.created',
      audience: JSON.stringify({ to: 'team' }), payload: JSON.stringify({ uid: message.uid }), created_at: madeAt,
    }),
    stream_tickets: async () => ({ token_hash: 'fixture-ticket-hash', user_id: person.id, session_hash: 'fixture-session-hash', expires_at: madeAt + 60_000 }),
    chat_reads: async () => ({ user_id: person.id, chat_key: message.chat_key, read_uid: message.uid, updated_at: madeAt }),
  };

  // In the order of `rows`: an attempt refers to its event.
  const order = (name: string) => Object.keys(rows).indexOf(name);
  const tables = (await tablesOf(db)).filter((table) => !table.name.startsWith('kysely_')).sort((a, b) => order(a.name) - order(b.name));
  for (const table of tables) {
    const { count } = await db.selectFrom(table.name).select(db.fn.countAll().as('count')).executeTakeFirstOrThrow();
    if (Number(count) > 0) continue;
    const row = rows[table.name];
    if (!row) throw new Error(`table ${table.name} is empty and fill.ts has no row for it: add one`);
    const values = Object.fromEntries(Object.entries(await row()).filter(([name]) => table.columns.has(name)));
    await db.insertInto(table.name).values(values).execute().catch((error: Error) => {
      throw new Error(`filling ${table.name}: ${error.message}`, { cause: error });
    });
    if (table.name === 'stream_entries') await db.updateTable('teams').set({ stream_seq: values.seq }).where('id', '=', team.id).execute();
  }
  process.stdout.write(`${JSON.stringify({ madeAt, sessionToken, ...demo }, null, 2)}\n`);
} finally {
  await store.close();
}

/** Each table and its columns, read from the catalog (earlier versions' introspectors differ). */
async function tablesOf(db: any): Promise<Array<{ name: string; columns: Set<string> }>> {
  const { rows } = databaseUrl
    ? await sql<{ table: string; column: string }>`select table_name as "table", column_name as "column" from information_schema.columns where table_schema = current_schema()`.execute(db)
    : await sql<{ table: string; column: string }>`select m.name as "table", c.name as "column" from sqlite_master m join pragma_table_info(m.name) c where m.type = 'table'`.execute(db);
  const tables = new Map<string, Set<string>>();
  for (const { table, column } of rows) tables.set(table, (tables.get(table) ?? new Set()).add(column));
  return [...tables].map(([name, columns]) => ({ name, columns }));
}
