import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AviaryApp } from '@aviary/sdk';
import { afterAll } from 'vitest';

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Array<{ close(): void }> = [];
afterAll(() => servers.forEach((server) => server.close()));

/**
 * An example app served on loopback as its main.ts serves it. The URL comes first, the app after it
 * (it needs the id and secret of an app created with that URL): `serve(app)` plugs it in, or an example's own
 * `node` handler when it serves more than its listener (the poll's widget).
 */
export async function exampleServer(): Promise<{ url: string; origin: string; serve(app: AviaryApp | { node: NodeHandler }): void }> {
  let handler: NodeHandler = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handler(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return { url: `${origin}/events`, origin, serve: (app) => void (handler = 'node' in app ? app.node : app.listener.node) };
}
