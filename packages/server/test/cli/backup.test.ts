import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { drainSearchQueue } from '../../src/core/search/searchQueue.js';
import { S3FileStorage } from '../../src/files/s3Storage.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { sqliteFile, openStore, type Db, type Store } from '../../src/store/store.js';
import { dialects } from '../helpers/dialects.js';
import { teamWithApp } from '../helpers/factories.js';
import { loopbackHosts, rawCall, type TestServer } from '../helpers/server.js';
import { download, upload } from '../files/upload.js';
import { startS3 } from '../files/s3server.js';
import { runCliProcess } from './cli.js';
import { type CliStore, cliScratch } from './stores.js';

/** Every table of the store, each as its rows (JSON, sorted): two stores are alike when these are equal. */
async function everyTable(db: Db, dialect: 'sqlite' | 'postgres'): Promise<Record<string, string[]>> {
  const names =
    dialect === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db)).rows
      : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public' order by table_name`.execute(db)).rows;
  const tables: Record<string, string[]> = {};
  for (const { name } of names) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)).rows;
    tables[name] = rows.map((row) => JSON.stringify(Object.keys(row).sort().map((key) => [key, String(row[key])]))).sort();
  }
  return tables;
}

const quick = { rate: 10_000, burst: 10_000 };

async function serveOn(store: Store, dataDir: string, databaseUrl: string | undefined): Promise<RunningServer> {
  const config = loadConfig(
    { port: 0, dataDir, databaseUrl, logLevel: 'silent', drainIdleMs: 0, allowedInternalHosts: loopbackHosts, rateLimits: { message: quick, messagePerRecipient: quick } },
    {},
  );
  return startServer(config, { store });
}

describe.each(dialects)('aviary backup and aviary restore (%s)', (dialect) => {
  const { fresh: freshOf, later, scratch } = cliScratch('backup');
  const fresh = () => freshOf(dialect);
  const dataDirOf = (store: CliStore) => store.on[store.on.indexOf('--data') + 1];
  /**
   * A fresh store that opens the app secrets of `source`: a PostgreSQL dump holds them sealed, and the key
   * is the deployment's (AVIARY_SECRET_KEY; here the generated key of the source's data directory), not
   * the dump's. A SQLite backup carries its data directory's key along.
   */
  const withKeyOf = async (source: CliStore) => {
    const made = await fresh();
    if (dialect === 'postgres') copyFileSync(join(dataDirOf(source), 'secret.key'), join(dataDirOf(made), 'secret.key'));
    return made;
  };
  const urlOf = (store: CliStore) => (store.on.includes('--database-url') ? store.on[store.on.indexOf('--database-url') + 1] : undefined);

  it('backs up under a steady load, restores into a fresh store alike table by table, and a server runs on it', { timeout: 120_000 }, async () => {
    const source = await fresh();
    const store = source.open();
    later(() => store.close());
    await store.migrate();
    const server = await serveOn(store, dataDirOf(source), urlOf(source));
    later(() => server.close());
    const { people } = await teamWithApp(store.db, 2);
    if (dialect === 'sqlite') writeFileSync(join(dataDirOf(source), 'kept-with-the-store.txt'), 'a file of the data directory');
    // An uploaded file, in the data directory's files folder (local storage), larger than a part of the backup's files table (4 MiB).
    const bytes = randomBytes(5 * 1024 * 1024);
    const uploaded = await upload({ url: server.url } as TestServer, people[0].token, 'big.bin', bytes);
    expect(uploaded.status).toBe(200);

    // Four senders until told to stop; each acknowledged message is noted with the count at that time.
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let sending = true;
    let reached: { count: number; resolve: () => void } | undefined;
    const untilAcknowledged = (count: number) => new Promise<void>((resolve) => (reached = { count, resolve }));
    const load = Promise.all(
      [0, 1, 2, 3].map(async (sender) => {
        for (let n = 0; sending; n++) {
          const answer = await rawCall(server.url, 'chat.sendMessage', { form: { token: people[sender % 2].token, to: people[(sender + 1) % 2].id, text: `load ${sender}.${n}` } });
          if (answer.status === 200) acknowledged.push(answer.body.uid);
          else failures.push(`HTTP ${answer.status}`);
          if (reached && acknowledged.length >= reached.count) reached.resolve();
        }
      }),
    );
    await untilAcknowledged(20);
    const before = [...acknowledged];
    const backupFile = join(scratch(), 'under-load.backup');
    const backup = await runCliProcess(['backup', '--out', backupFile, ...source.on, '--json']);
    // The load went on during the backup and after it.
    await untilAcknowledged(acknowledged.length + 20);
    sending = false;
    await load;
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toEqual({
      kind: dialect, file: backupFile, files: dialect === 'sqlite' ? ['kept-with-the-store.txt', 'secret.key'] : [], uploads: { count: 1, bytes: bytes.length }, objects: null,
    });
    if (dialect === 'postgres') expect(existsSync(`${backupFile}.files`)).toBe(true);
    expect(failures).toEqual([]);

    // Into a fresh store: every message acknowledged before the backup began is there, each as it was.
    const restored = await withKeyOf(source);
    const restore = await runCliProcess(['restore', '--from', backupFile, ...restored.on, '--json']);
    expect(restore.code, restore.stderr).toBe(0);
    expect(JSON.parse(restore.stdout)).toMatchObject({ kind: dialect, uploads: { count: 1, bytes: bytes.length }, objects: null });
    const restoredStore = restored.open();
    later(() => restoredStore.close());
    const restoredTables = await everyTable(restoredStore.db, dialect);
    const sourceTables = await everyTable(store.db, dialect);
    expect(Object.keys(restoredTables)).toEqual(Object.keys(sourceTables));
    const restoredUids = (await restoredStore.db.selectFrom('messages').select('uid').execute()).map((row) => row.uid);
    expect(before.filter((uid) => !restoredUids.includes(uid))).toEqual([]);
    for (const row of restoredTables.messages) expect(sourceTables.messages).toContain(row);
    if (dialect === 'sqlite') expect(existsSync(join(dataDirOf(restored), 'kept-with-the-store.txt'))).toBe(true);

    // With the load over, a second backup restores into a store equal to the source in every table.
    // Quiet includes the SQLite search index: its queue is drained here, not by the server's indexer
    // between the backup and the comparison (the restore would hold the queue the source no longer has).
    await drainSearchQueue(store.db);
    const quietFile = join(scratch(), 'quiet.backup');
    expect((await runCliProcess(['backup', '--out', quietFile, ...source.on])).code).toBe(0);
    const quiet = await withKeyOf(source);
    expect((await runCliProcess(['restore', '--from', quietFile, ...quiet.on])).code).toBe(0);
    const quietStore = quiet.open();
    later(() => quietStore.close());
    expect(await everyTable(quietStore.db, dialect)).toEqual(await everyTable(store.db, dialect));

    // A server runs on the restored store: the people's tokens work, and it takes new messages.
    const onRestored = await serveOn(restoredStore, dataDirOf(restored), urlOf(restored));
    later(() => onRestored.close());
    const sent = await rawCall(onRestored.url, 'chat.sendMessage', { form: { token: people[0].token, to: people[1].id, text: 'after the restore' } });
    expect(sent.status).toBe(200);
    const history = await rawCall(onRestored.url, 'chat.fetchMessages', { query: { token: people[1].token, chat: people[0].id, uids: before.slice(0, 5).join(',') } });
    expect(history.status).toBe(200);
    expect(history.body.map((message: { uid: string }) => message.uid).sort()).toEqual(before.slice(0, 5).sort());
    // The uploaded file came back with the store: its uploader downloads the same bytes.
    const served = await download({ url: onRestored.url } as TestServer, people[0].token, uploaded.body.file.url);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(bytes)).toBe(true);
  });

  it('with files in S3, records the bucket’s listing, and a restore says which listed objects the bucket lacks', { timeout: 90_000 }, async () => {
    const s3 = await startS3();
    later(() => s3.close());
    const env = {
      AVIARY_S3_BUCKET: s3.config.bucket, AVIARY_S3_ENDPOINT: s3.config.endpoint!, AVIARY_S3_ACCESS_KEY_ID: 'S3RVER', AVIARY_S3_SECRET_ACCESS_KEY: 'S3RVER', AVIARY_S3_FORCE_PATH_STYLE: '1',
    };
    const bucket = new S3FileStorage(s3.config);
    await bucket.put('t_a/f_one', Readable.from([Buffer.from('one')]));
    await bucket.put('t_a/f_two', Readable.from([Buffer.from('second')]));
    const source = await fresh();
    const setup = source.open();
    await setup.migrate();
    await setup.close();
    const file = join(scratch(), 'with-s3.backup');
    const backup = await runCliProcess(['backup', '--out', file, ...source.on, '--json'], env);
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ uploads: { count: 0, bytes: 0 }, objects: { listed: 2 } });

    // No app, so no secret key to carry: fresh stores will do.
    const whole = await runCliProcess(['restore', '--from', file, ...(await fresh()).on, '--json'], env);
    expect(whole.code, whole.stderr).toBe(0);
    expect(JSON.parse(whole.stdout).objects).toEqual({ listed: 2, missing: 0 });

    await bucket.delete('t_a/f_two');
    const lacking = await runCliProcess(['restore', '--from', file, ...(await fresh()).on, '--json'], env);
    expect(lacking.code, lacking.stderr).toBe(0);
    expect(JSON.parse(lacking.stdout).objects).toEqual({ listed: 2, missing: 1 });
    expect(lacking.stderr).toContain('the bucket lacks t_a/f_two (6 bytes)');
  });

  it('refuses to overwrite a file, to restore into a store that is not empty, and a file that is no backup', { timeout: 90_000 }, async () => {
    const source = await fresh();
    const setup = source.open();
    await setup.migrate();
    await setup.close();
    const dir = scratch();
    const taken = join(dir, 'taken');
    writeFileSync(taken, 'something');
    const overwrite = await runCliProcess(['backup', '--out', taken, ...source.on, '--json']);
    expect(overwrite.code).toBe(1);
    expect(JSON.parse(overwrite.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringContaining('exists already') });

    // Inside the data directory, the next backup would carry it (and a SQLite one would copy itself as it grows).
    const inside = join(dataDirOf(source), 'backups', 'nightly.backup');
    const insideAnswer = await runCliProcess(['backup', '--out', inside, ...source.on, '--json']);
    expect(insideAnswer.code).toBe(1);
    expect(JSON.parse(insideAnswer.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringContaining('is inside the data directory') });
    expect(existsSync(join(dataDirOf(source), 'backups'))).toBe(false);

    const file = join(dir, 'good.backup');
    expect((await runCliProcess(['backup', '--out', file, ...source.on])).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const intoItself = await runCliProcess(['restore', '--from', file, ...source.on, '--json']);
    expect(intoItself.code).toBe(1);
    expect(JSON.parse(intoItself.stdout).description).toMatch(dialect === 'sqlite' ? /is not empty/ : /has \d+ tables already/);

    const notBackup = await runCliProcess(['restore', '--from', taken, ...(await fresh()).on, '--json']);
    expect(JSON.parse(notBackup.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringContaining('is not a backup') });
  });

  it.runIf(dialect === 'sqlite')('shows why the docs warn: a copy of the SQLite file alone misses what is in its WAL', async () => {
    const source = await fresh();
    const store = source.open();
    later(() => store.close());
    await store.migrate();
    const { people } = await teamWithApp(store.db, 2);
    // The store is open and has not checkpointed: the new rows are in aviary.sqlite-wal only.
    const copied = join(scratch(), 'aviary.sqlite');
    copyFileSync(sqliteFile(dataDirOf(source)), copied);
    const copy = openStore({ dataDir: join(copied, '..') });
    later(() => copy.close());
    const inCopy = await copy.db.selectFrom('users').select('id').where('id', 'in', people.map((person) => person.id)).execute().catch(() => []);
    expect(inCopy).toEqual([]);
  });
});
