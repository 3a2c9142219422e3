import { Agent, request } from 'node:http';

/** A request as the wire carries it: the verb, the path with its query, headers and the body's bytes. */
export interface PlainRequest {
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  body?: string | Uint8Array;
}

export interface PlainAnswer {
  status: number;
  text: string;
}

/**
 * For files that send thousands of requests: node:http over a keep-alive agent of `sockets` connections,
 * a tenth of fetch's cost per request (the server under test shares the process). `close()` ends the
 * connections.
 */
export function plainHttp(baseUrl: string, sockets: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const { hostname, port } = new URL(baseUrl);
  const send = ({ method, path, headers, body }: PlainRequest): Promise<PlainAnswer> =>
    new Promise((resolve, reject) => {
      const outgoing = request({ host: hostname, port, path, method, headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  return { send, close: () => agent.destroy() };
}

/** Runs `task(0)`, `task(1)` … `task(count - 1)`, `concurrency` at a time, and resolves when all have. */
export async function inParallel(count: number, concurrency: number, task: (n: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
