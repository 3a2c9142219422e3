import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sessionFor } from '../scheduled/scheduledCast.js';
import type { TestServer } from '../helpers/server.js';
import { chatCast } from '../methods/chat-cast.js';

const run = promisify(execFile);

export interface HookAnswer {
  status: number;
  contentType: string;
  body: any;
  headers: Headers;
}

/** A POST to a webhook's URL with a raw body, as any tool sends it. */
export async function postHook(baseUrl: string, path: string, body: string, contentType = 'application/json', extra: Record<string, string> = {}): Promise<HookAnswer> {
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': contentType, ...extra }, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // "ok", Slack's answer: kept as text.
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: parsed, headers: response.headers };
}

/** The same with the real `curl`: its arguments after the URL (`-d`, `-H`, `--data-urlencode`…). Answers status and body. */
export async function curlHook(url: string, args: string[]): Promise<{ status: number; body: string }> {
  const { stdout } = await run('curl', ['-sS', '-w', '\n%{http_code}', '-X', 'POST', url, ...args]);
  const at = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
}

/** The chat cast, with Alice's and Bob's sessions for the methods a person calls. */
export async function hookCast(t: TestServer) {
  const cast = await chatCast(t);
  const db = t.testStore.store.db;
  const asPerson = async (userId: string) => {
    const session = await sessionFor(db, userId, Date.now());
    return (method: string, json: unknown) => t.call(method, { json, headers: { authorization: `Bearer ${session}` } });
  };
  return { ...cast, aliceSession: await asPerson(cast.alice.id), bobSession: await asPerson(cast.bob.id), asPerson };
}
