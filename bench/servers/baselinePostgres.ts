// The PostgreSQL baseline: the least a Fastify route that writes one row to PostgreSQL can cost, with the
// store's pool settings (10 connections), in the database DATABASE_URL names.
import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
await pool.query('create table if not exists baseline_rows (id bigserial primary key, body text not null, at bigint not null)');

const app = Fastify();
await app.register(formbody);
app.post('/insert', async (request) => {
  const { rows } = await pool.query<{ id: string }>('insert into baseline_rows (body, at) values ($1, $2) returning id', [
    String((request.body as { text?: string }).text ?? ''),
    Date.now(),
  ]);
  return { id: rows[0].id };
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening on ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
