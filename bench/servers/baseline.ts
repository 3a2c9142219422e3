// The benchmark's baseline: the least a Fastify route that writes one row to SQLite can cost.
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import formbody from '@fastify/formbody';

const dir = process.argv[2];
const db = new SQLite(join(dir, 'baseline.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('create table if not exists rows (id integer primary key, body text not null, at integer not null)');
const insert = db.prepare('insert into rows (body, at) values (?, ?)');

const app = Fastify();
await app.register(formbody);
app.post('/insert', async (request) => {
  const result = insert.run(String((request.body as { text?: string }).text ?? ''), Date.now());
  return { id: String(result.lastInsertRowid) };
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening on ${address}\n`);
