// The peers bench's Socket.IO server: one room per channel, one SQLite insert (WAL) per message before it
// is emitted, so that it is as durable as Aviary. With REDIS_URL (and PEERS_REDIS_PREFIX), rooms span the
// processes through @socket.io/redis-adapter. A message is POSTed as JSON { room, from, text } to
// /messages; a client joins its room with the `room` query parameter.
import { createServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import SQLite from 'better-sqlite3';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';

const MAX_BODY_BYTES = 64 * 1024;
const db = new SQLite(process.argv[2]);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
db.exec('create table if not exists messages (id integer primary key, room text not null, from_id text not null, text text not null, timestamp integer not null)');
const insert = db.prepare('insert into messages (room, from_id, text, timestamp) values (?, ?, ?, ?)');

const server = createServer((request, response) => {
  if (request.method !== 'POST' || request.url !== '/messages') {
    response.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  request.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) request.destroy();
    else chunks.push(chunk);
  });
  request.on('end', () => {
    const { room, from, text } = JSON.parse(Buffer.concat(chunks).toString()) as { room: string; from: string; text: string };
    const timestamp = Date.now();
    const { lastInsertRowid } = insert.run(room, from, text, timestamp);
    io.to(room).emit('message', { id: Number(lastInsertRowid), room, from, text, timestamp });
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, id: Number(lastInsertRowid) }));
  });
});

const io = new Server(server, { perMessageDeflate: false, transports: ['websocket'] });
const redisUrl = process.env.REDIS_URL;
const redis: Redis[] = [];
if (redisUrl) {
  const pub = new Redis(redisUrl);
  const sub = pub.duplicate();
  redis.push(pub, sub);
  io.adapter(createAdapter(pub, sub, { key: `${process.env.PEERS_REDIS_PREFIX ?? 'peers-bench'}:socket.io` }));
}
io.on('connection', (socket) => {
  const room = socket.handshake.query.room;
  if (typeof room === 'string') void socket.join(room);
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => {
  void io.close();
  for (const client of redis) client.disconnect();
  db.close();
  process.exit(0);
});
