// The stream bench's baseline: a bare `ws` server that broadcasts what it is POSTed to every client, no more.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    // Encoded once and shared by every socket, as the gateway does.
    const frame = Buffer.concat(chunks);
    for (const client of wss.clients) client.send(frame, { binary: false });
    response.end('{}');
  });
});
server.on('upgrade', (request, socket, head) => wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws)));
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
