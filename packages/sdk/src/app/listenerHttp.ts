/**
 * The listener's plain HTTP: the body read as raw bytes (the token signs their digest, so nothing may
 * decode them first), JSON parsed only after the token is checked, answers written as JSON.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/** A request as `handle` needs it: the headers and the raw body, exactly the bytes received (a string counts as UTF-8). */
export interface EventRequest {
  headers: IncomingHttpHeaders;
  body: Uint8Array | string;
}

/** The answer `handle` decided on; adapters write it as JSON. */
export interface ListenerAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const jsonContentType = 'application/json; charset=utf-8';

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function parseJsonBody(raw: Uint8Array | string): { value: unknown } | { problem: string } {
  if (raw.length === 0) return { problem: 'the body is empty; an event is a JSON object' };
  let text: string;
  try {
    text = typeof raw === 'string' ? raw : utf8.decode(raw);
  } catch {
    return { problem: 'the body is not valid UTF-8' };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { problem: `the body is not valid JSON: ${(error as Error).message}` };
  }
}

export const tooLarge = Symbol('tooLarge');

export function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array | typeof tooLarge> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > limit) {
      req.resume();
      resolve(tooLarge);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve(tooLarge);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function writeAnswer(res: ServerResponse, result: ListenerAnswer): void {
  const body = JSON.stringify(result.body);
  res.writeHead(result.status, {
    ...result.headers,
    'content-type': jsonContentType,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
