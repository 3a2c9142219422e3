import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoCredentials } from '../../src/core/commands/seedDemo.js';
import { openStore, type Store } from '../../src/store/store.js';
import { getInfo, runCli, runCliJson, startCliServer, tempDataDir, type CliServer } from './cli.js';

describe('aviary seed --demo', () => {
  const data = tempDataDir();
  let demo: DemoCredentials;
  let store: Store;

  beforeAll(async () => {
    demo = await runCliJson<DemoCredentials>(['seed', '--demo', '--data', data.dir]);
    store = openStore({ dataDir: data.dir });
  });
  afterAll(async () => {
    await store.close();
    data.remove();
  });

  it('prints the team, people with passwords and tokens, channels and the app as one JSON object', () => {
    expect(demo.teamId).toMatch(/^t:/);
    expect(demo.users.length).toBeGreaterThanOrEqual(5);
    for (const user of demo.users) {
      expect(user).toEqual({
        id: expect.stringMatching(/^u:[a-z2-7]{16}$/),
        email: expect.stringContaining('@'),
        password: expect.stringMatching(/^.{8,}$/),
        firstName: expect.any(String),
        lastName: expect.any(String),
        token: expect.stringMatching(/^au_/),
      });
    }
    expect(demo.channels).toHaveLength(3);
    expect(new Set(demo.channels.map((channel) => channel.type))).toEqual(new Set(['public', 'private']));
    for (const channel of demo.channels) {
      expect(channel.id).toMatch(/^g:[a-z2-7]{16}$/);
      expect(channel.members.length).toBeGreaterThanOrEqual(2);
      for (const member of channel.members) expect(demo.users.map((user) => user.id)).toContain(member);
    }
    expect(demo.app).toEqual({
      id: expect.stringMatching(/^a:/),
      secret: expect.stringMatching(/^as_/),
      botUserId: expect.stringMatching(/^u:/),
      botToken: expect.stringMatching(/^ab_/),
    });
  });

  it('stores the first person as admin, the channels with their members, and the app installed by everyone', async () => {
    const admin = await store.db.selectFrom('users').select('role').where('id', '=', demo.users[0].id).executeTakeFirstOrThrow();
    expect(admin.role).toBe('admin');
    for (const channel of demo.channels) {
      const members = await store.db.selectFrom('channel_members').select('user_id').where('channel_id', '=', channel.id).execute();
      expect(members.map((row) => row.user_id).sort()).toEqual([...channel.members].sort());
    }
    const installs = await store.db.selectFrom('installs').select('user_id').where('app_id', '=', demo.app.id).execute();
    expect(installs.map((row) => row.user_id).sort()).toEqual(demo.users.map((user) => user.id).sort());
    const app = await store.db.selectFrom('apps').select(['name', 'bot_user_id']).where('id', '=', demo.app.id).executeTakeFirstOrThrow();
    expect(app).toEqual({ name: 'Aviary Demo', bot_user_id: demo.app.botUserId });
  });

  it('writes a few hundred messages over every channel and some direct chats, spread over past days, uids ascending with time', async () => {
    const messages = await store.db.selectFrom('messages').select(['uid', 'chat_key', 'timestamp', 'text']).orderBy('uid').execute();
    expect(messages.length).toBeGreaterThanOrEqual(200);
    const chats = new Set(messages.map((message) => message.chat_key));
    for (const channel of demo.channels) expect(chats).toContain(channel.id);
    expect([...chats].filter((key) => key.includes('|')).length).toBeGreaterThanOrEqual(3);
    const timestamps = messages.map((message) => message.timestamp);
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
    expect(Math.max(...timestamps)).toBeLessThan(Date.now());
    expect(Math.max(...timestamps) - Math.min(...timestamps)).toBeGreaterThan(3 * 24 * 3600_000);
    expect(messages.every((message) => message.text.trim() !== '')).toBe(true);
  });

  it('saves the same credentials to <data>/demo-credentials.json, readable only by its owner', () => {
    const file = join(data.dir, 'demo-credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(demo);
  });

  it('refuses to seed a store that already has a team', async () => {
    const result = await runCli(['seed', '--demo', '--data', data.dir, '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ error: 'TeamExists', description: expect.stringContaining('already has a team') });
    expect(result.stderr).toContain('already has a team');
    expect(await store.db.selectFrom('teams').select('id').execute()).toHaveLength(1);
  });

  describe('with `aviary serve` on the same data', () => {
    let server: CliServer;
    beforeAll(async () => {
      server = await startCliServer(['--data', data.dir]);
    });
    afterAll(async () => {
      await server.stop();
    });

    it('every person’s token and the bot token work', async () => {
      for (const user of demo.users) {
        const me = await getInfo(server.url, user.token);
        expect(me).toEqual({ status: 200, body: expect.objectContaining({ id: user.id, email: user.email, firstName: user.firstName }) });
      }
      const bot = await getInfo(server.url, demo.app.botToken);
      expect(bot).toEqual({ status: 200, body: expect.objectContaining({ id: demo.app.botUserId, isBot: true }) });
    });
  });
});
