import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';

/**
 * README.md's "From TypeScript" example, run as written (plain `tsx`, the built @aviary/sdk) against a
 * real server: each `console.log(…); // what it prints` must print exactly that.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('sqlite');
});
afterAll(async () => {
  await stopTestServer(t);
});

/** The README's TypeScript block under the heading, and what each commented console.log claims. */
function readmeExample(): { code: string; claims: RegExp[] } {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const section = readme.slice(readme.indexOf('### From TypeScript'));
  const code = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  // A claim may name a placeholder (`01J…`): it stands for any text.
  const claims = [...code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map(
    ([, claim]) => new RegExp(`^${claim!.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`),
  );
  return { code, claims };
}

it('README: the SDK example prints what its comments say', { timeout: 60_000 }, async () => {
  const team = await t.f.team();
  const ada = await t.f.person(team.id);
  const app = await t.f.app(team.id, ada.id);
  const { token } = await t.f.install(app.id, ada.id);
  const { channel } = await createChannel(t.server.ctx, { user: ada, appId: null }, { name: 'readme', members: [] });

  const { code, claims } = readmeExample();
  expect(claims.length).toBeGreaterThanOrEqual(2);
  const file = `${root}packages/server/test/examples/.readme-example-${process.pid}.mts`;
  await writeFile(file, code.replace("'http://localhost:8080'", JSON.stringify(t.url)));
  try {
    const { stdout } = await run(`${root}node_modules/.bin/tsx`, [file], { cwd: root, env: { ...process.env, TOKEN: token, CHAT: channel.id } });
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(claims.length);
    lines.forEach((line, index) => expect(line).toMatch(claims[index]!));
  } finally {
    await rm(file, { force: true });
  }
  const [sent] = (await t.server.ctx.db.selectFrom('messages').select(['text', 'chat_key']).where('from_user_id', '=', ada.id).execute());
  expect(sent).toEqual({ text: 'Hello', chat_key: channel.id });
});
