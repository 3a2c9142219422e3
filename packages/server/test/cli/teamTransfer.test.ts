import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { seedDemo } from '../../src/core/commands/seedDemo.js';
import { startServer, type RunningServer } from '../../src/server.js';
import type { Store } from '../../src/store/store.js';
import { dialects } from '../helpers/dialects.js';
import { loopbackHosts } from '../helpers/server.js';
import { runCli, runCliJson } from './cli.js';
import { cliScratch } from './stores.js';

/** Every file of an export but the manifest's time, as text: two exports of the same team are equal in these. */
function exportFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const text = readFileSync(join(dir, name), 'utf8');
    files[name] = name === 'manifest.json' ? JSON.stringify({ ...JSON.parse(text), exportedAt: undefined }) : text;
  }
  return files;
}

const lines = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));

async function serveOn(store: Store, on: string[]): Promise<RunningServer> {
  const at = (flag: string) => (on.includes(flag) ? on[on.indexOf(flag) + 1] : undefined);
  const config = loadConfig({ port: 0, dataDir: at('--data')!, databaseUrl: at('--database-url'), logLevel: 'silent', drainIdleMs: 0, allowedInternalHosts: loopbackHosts }, {});
  return startServer(config, { store });
}

describe('aviary team export and aviary team import', () => {
  const { fresh, later, scratch } = cliScratch('export');
  const target = dialects.includes('postgres') ? 'postgres' : 'sqlite';

  it(`moves the demo team from SQLite to ${target} with every record alike, and a person signs in there and reads the history`, { timeout: 120_000 }, async () => {
    const source = await fresh('sqlite');
    const sourceStore = source.open();
    await sourceStore.migrate();
    const demo = await seedDemo(sourceStore.db, Date.now());
    await sourceStore.close();

    const out = join(scratch(), 'demo');
    const exported = await runCliJson(['team', 'export', '--team', demo.teamId, '--out', out, '--include-secrets', ...source.on]);
    expect(exported.team).toEqual({ id: demo.teamId, name: expect.any(String) });
    expect(exported.kinds.people.count).toBe(demo.users.length + 1); // and the app's bot
    expect(exported.kinds.messages.count).toBeGreaterThan(50);
    expect(readdirSync(out).sort()).toEqual(
      ['apps', 'channels', 'installs', 'manifest', 'memberships', 'message-edits', 'messages', 'people', 'pins', 'reactions', 'reads', 'saved', 'team', 'thread-follows', 'threads', 'tokens', 'webhooks'].map((name) => (name === 'manifest' ? 'manifest.json' : `${name}.jsonl`)).sort(),
    );

    const into = await fresh(target);
    const imported = await runCliJson(['team', 'import', '--from', out, ...into.on]);
    expect(imported.teamId).toBe(demo.teamId);
    expect(imported.counts).toEqual(Object.fromEntries(Object.entries(exported.kinds).map(([kind, { count }]: [string, any]) => [kind, count])));

    // Exported again from the new store, every file is the same, record for record.
    const again = join(scratch(), 'again');
    await runCliJson(['team', 'export', '--team', demo.teamId, '--out', again, '--include-secrets', ...into.on]);
    expect(exportFiles(again)).toEqual(exportFiles(out));

    // A second import is refused, naming an id, and changes nothing.
    const twice = await runCli(['team', 'import', '--from', out, ...into.on, '--json']);
    expect(twice.code).toBe(1);
    expect(JSON.parse(twice.stdout)).toEqual({ error: 'ImportConflict', description: expect.stringContaining(`"${demo.teamId}" is already in this store`) });

    // On the new store, a demo person signs in with their password and reads a channel's history and searches it.
    const store = into.open();
    later(() => store.close());
    const server = await serveOn(store, into.on);
    later(() => server.close());
    const person = demo.users[0];
    const channel = demo.channels.find((candidate) => candidate.members.includes(person.id))!;
    const signIn = await fetch(`${server.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: person.email, password: person.password }) });
    expect(signIn.status).toBe(200);
    const { sessionToken } = (await signIn.json()) as { sessionToken: string };
    const call = async (method: string, params: object) => {
      const response = await fetch(`${server.url}/v1/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionToken}` }, body: JSON.stringify(params) });
      return { status: response.status, body: (await response.json()) as any };
    };
    const history = await call('chat.fetchMessages', { chat: channel.id, limit: 100 });
    expect(history.status).toBe(200);
    const stored = lines(out, 'messages.jsonl').filter((message) => message.chatKey === channel.id);
    expect(history.body.map((message: { uid: string }) => message.uid).sort()).toEqual(stored.map((message) => message.uid).sort().slice(-100));
    const word = stored.flatMap((message) => String(message.text).split(/\s+/)).find((candidate: string) => /^[a-z]{5,}$/i.test(candidate));
    expect(word).toBeDefined();
    const found = await call('search.messages', { query: word });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(JSON.stringify(found.body)).toContain(word);
  });
});
