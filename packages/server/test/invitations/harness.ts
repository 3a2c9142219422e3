import { SESSION_LIFETIME_MS } from '../../src/core/commands/sessions.js';
import { hashToken, newSecret } from '../../src/store/ids.js';
import type { UsersTable } from '../../src/store/schema.js';
import type { TestServer } from '../helpers/server.js';

export interface Answer {
  status: number;
  body: any;
}

/** Calls a /v1 method as JSON, with a session token when given (anyone-callable methods take none). */
export async function callMethod(url: string, method: string, params: unknown = {}, sessionToken?: string): Promise<Answer> {
  const response = await fetch(`${url}/v1/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(sessionToken ? { authorization: `Bearer ${sessionToken}` } : {}) },
    body: JSON.stringify(params),
  });
  return { status: response.status, body: await response.json() };
}

/** A session made as signing in makes one, minus the (slow by design) password check. */
export async function sessionOf(t: TestServer, user: UsersTable): Promise<(method: string, params?: unknown) => Promise<Answer>> {
  const token = newSecret('as_s_');
  const now = Date.now();
  await t.testStore.store.db.insertInto('sessions').values({ token_hash: hashToken(token), user_id: user.id, created_at: now, expires_at: now + SESSION_LIFETIME_MS }).execute();
  return (method, params) => callMethod(t.url, method, params, token);
}

/** Signs in through POST /api/session as the web client does. */
export async function signInAnswer(url: string, email: string, password: string): Promise<Answer> {
  const response = await fetch(`${url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return { status: response.status, body: await response.json() };
}

export const tokenOf = (link: string): string => /\/invite\/([^/?#\s]+)/.exec(link)![1];

/** A port free right now on loopback, for a server whose public URL must be known before it starts. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
