import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DemoCredentials } from '../../src/core/commands/seedDemo.js';
import { startAppListener, type AppListener } from '../apps/harness.js';
import { repoRoot, runCli, runCliJson, serveScratch } from './cli.js';

/** `npm start`'s arguments to `aviary serve`, read from the root package.json so that the test follows the script. */
const startScriptArgs = (): string[] => {
  const script: string = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts.start;
  const [command, subcommand, ...args] = script.split(/\s+/);
  expect([command, subcommand]).toEqual(['aviary', 'serve']);
  return args;
};

/** Nothing allowed from the environment: whatever is allowed comes from the flags under test. */
const noAllowance = { AVIARY_ALLOWED_INTERNAL_HOSTS: '' };

describe('internal hosts for the local demo', () => {
  const { dataDir, serve, after } = serveScratch(noAllowance);
  const listen = async (): Promise<AppListener> => {
    const listener = await startAppListener();
    after(() => listener.close());
    return listener;
  };

  it('npm start allows loopback listeners and says so; the app tutorial works with a listener on 127.0.0.1', async () => {
    const dir = dataDir();
    const server = await serve([...startScriptArgs(), '--data', dir]);
    expect(server.logLines()).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'app listeners may be at these internal hosts: 127.0.0.0/8, ::1, localhost (allowed by --allow-internal-hosts or AVIARY_ALLOWED_INTERNAL_HOSTS)',
        allowedInternalHosts: ['127.0.0.0/8', '::1', 'localhost'],
      }),
    );
    const demo: DemoCredentials = JSON.parse(readFileSync(join(dir, 'demo-credentials.json'), 'utf8'));
    const [developer, person] = demo.users;
    const listener = await listen();
    const on = ['--data', dir];
    const app = await runCliJson<{ id: string; secret: string }>(['app', 'create', '--name', 'Weather', '--developer', developer.id, '--listener-url', listener.url, ...on], noAllowance);
    const bot = await runCliJson<{ botUserId: string }>(['app', 'bot', '--app', app.id, '--enable', ...on], noAllowance);
    listener.useCredentials(app.id, app.secret);

    // The install command is a process of its own: it is allowed loopback the way every command is, by the environment.
    const refused = await runCli(['app', 'install', '--app', app.id, '--user', person.id, ...on, '--json'], noAllowance);
    expect(JSON.parse(refused.stdout)).toEqual({ error: 'InstallFailed', description: expect.stringContaining('is internal (loopback); an administrator can allow it with AVIARY_ALLOWED_INTERNAL_HOSTS') });
    await runCliJson(['app', 'install', '--app', app.id, '--user', person.id, ...on], { AVIARY_ALLOWED_INTERNAL_HOSTS: '127.0.0.1' });
    const [install] = await listener.waitForVerified(1);
    expect(install.event).toMatchObject({ name: 'app.install', userId: person.id });

    // The running server delivers to it: the flag allowed it.
    const sent = await fetch(`${server.url}/v1/chat.sendMessage`, { method: 'POST', body: new URLSearchParams({ token: person.token, to: bot.botUserId, text: 'hello' }) });
    expect(sent.status).toBe(200);
    const [, message] = await listener.waitForVerified(2);
    expect(message.event).toMatchObject({ name: 'chat.receiveMessage', message: { text: 'hello' } });
  });

  it('serve allows nothing internal by default, and says nothing about it', async () => {
    const dir = dataDir();
    const server = await serve(['--data', dir]);
    expect(server.stdout()).not.toContain('internal hosts');
    expect(await server.stop()).toBe(0);
  });

  it('serve refuses an allow-list entry it could never match, naming it', async () => {
    const result = await runCli(['serve', '--port', '0', '--data', dataDir(), '--allow-internal-hosts', '127.0.0.0/8,0x7f.1'], noAllowance);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"0x7f.1" in the allowed internal hosts (AVIARY_ALLOWED_INTERNAL_HOSTS or --allow-internal-hosts) is not a host name');
    const fromEnvironment = await runCli(['serve', '--port', '0', '--data', dataDir()], { AVIARY_ALLOWED_INTERNAL_HOSTS: '10.0.0.0/40' });
    expect(fromEnvironment.code).toBe(1);
    expect(fromEnvironment.stderr).toContain('aviary: "10.0.0.0/40" in the allowed internal hosts');
  });
});
