import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';

/** The client address every request claims through X-Forwarded-For; the test servers trust loopback as their proxy. */
export const CLIENT = '203.0.113.7';
export const PASSWORD = 'correct horse battery staple';

export interface Answer {
  status: number;
  body: any;
}

/** A request from CLIENT behind the trusted loopback proxy, with a session token when given. */
export async function request(t: TestServer, method: string, path: string, json?: unknown, token?: string): Promise<Answer> {
  const response = await fetch(`${t.url}${path}`, {
    method,
    headers: {
      'x-forwarded-for': CLIENT,
      ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export const call = (t: TestServer, method: string, params: unknown = {}, token?: string) => request(t, 'POST', `/v1/${method}`, params, token);

/** Signs in through POST /api/session and answers the session token. */
export async function signIn(t: TestServer, email: string, password = PASSWORD): Promise<string> {
  const answer = await request(t, 'POST', '/api/session', { email, password });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.sessionToken as string;
}

/** The team's audit rows, oldest first, as stored. */
export async function auditRows(t: TestServer, teamId: string) {
  return t.testStore.store.db.selectFrom('audit_log').selectAll().where('team_id', '=', teamId).orderBy('at').orderBy('id').execute();
}

/** Expects exactly one row of `action` in the team, with this actor, address and target. */
export async function expectRow(t: TestServer, teamId: string, action: string, want: { actor: string | null; address: string | null; target: [string, string]; appId?: string | null }) {
  const rows = (await auditRows(t, teamId)).filter((row) => row.action === action);
  expect(rows, `${action} rows`).toHaveLength(1);
  expect(rows[0]).toMatchObject({ actor_user_id: want.actor, address: want.address, target_kind: want.target[0], target_id: want.target[1], actor_app_id: want.appId ?? null });
  expect(Number(rows[0].at)).toBeGreaterThan(0);
  return rows[0];
}
