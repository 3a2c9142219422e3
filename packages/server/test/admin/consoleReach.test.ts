import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../helpers/dialects.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { auditRows, call, CLIENT, PASSWORD, signIn } from '../audit/harness.js';

/**
 * What the admin console reaches beyond what its admin sees (issue 25): the members of every channel,
 * private ones the admin is not in too (channels.listMembers/addMembers/removeMembers with a session,
 * audit-logged), and every app with its developer and installs (admin.listApps).
 */
for (const dialect of dialects) {
  describe(`the admin console's reach [${dialect}]`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(dialect, { trustProxy: ['127.0.0.1', '::1'] });
    });
    afterAll(() => stopTestServer(t));

    const cast = async () => {
      const team = await t.f.team();
      const person = (firstName: string, role: 'admin' | 'user' = 'user') => t.f.person(team.id, { role, password: PASSWORD, firstName });
      const [admin, mod, member, newcomer] = await Promise.all([person('Ada', 'admin'), person('Mo'), person('Mel'), person('Nia')]);
      const [adminToken, modToken, memberToken, newcomerToken] = await Promise.all([admin, mod, member, newcomer].map((p) => signIn(t, p.email!)));
      const made = await call(t, 'channels.create', { name: `secret ${Math.random().toString(36).slice(2, 8)}`, type: 'private', members: [member.id] }, modToken);
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      return { team, admin, mod, member, newcomer, adminToken, modToken, memberToken, newcomerToken, channelId: made.body.id as string };
    };
    const memberIds = async (channelId: string, token: string) => ((await call(t, 'channels.listMembers', { channelId }, token)).body as Array<{ userId: string }>).map((m) => m.userId).sort();

    it('lets a team admin’s session list, add and remove the members of a private channel the admin is not in', async () => {
      const { team, admin, mod, member, newcomer, adminToken, newcomerToken, channelId } = await cast();
      // Not a member: the admin still does not read it, but manages who is in it.
      expect((await call(t, 'chat.fetchMessages', { chat: channelId }, adminToken)).body).toMatchObject({ error: 'UnknownChat' });
      expect(await memberIds(channelId, adminToken)).toEqual([mod.id, member.id].sort());

      const added = await call(t, 'channels.addMembers', { channelId, members: [newcomer.id] }, adminToken);
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(added.body.members).toEqual({ [newcomer.id]: { status: 'added' } });
      expect((await call(t, 'channels.getInfo', { channelId }, newcomerToken)).status).toBe(200);

      const removed = await call(t, 'channels.removeMembers', { channelId, members: [member.id] }, adminToken);
      expect(removed.body.members).toEqual({ [member.id]: { status: 'removed' } });
      expect(await memberIds(channelId, adminToken)).toEqual([mod.id, newcomer.id].sort());
      // The admin never became a member.
      expect((await call(t, 'channels.list', {}, adminToken)).body.some((c: { id: string }) => c.id === channelId)).toBe(false);

      const rows = (await auditRows(t, team.id)).filter((row) => row.action.startsWith('channel.members'));
      expect(rows.map((row) => [row.action, row.actor_user_id, row.address, row.target_kind, row.target_id, JSON.parse(row.details)])).toEqual([
        ['channel.membersAdded', admin.id, CLIENT, 'channel', channelId, { userIds: [newcomer.id] }],
        ['channel.membersRemoved', admin.id, CLIENT, 'channel', channelId, { userIds: [member.id] }],
      ]);
    });

    it('still refuses a member, and records nothing for a moderator’s own changes', async () => {
      const { team, member, newcomer, memberToken, newcomerToken, modToken, channelId } = await cast();
      expect((await call(t, 'channels.addMembers', { channelId, members: [newcomer.id] }, memberToken)).body).toMatchObject({ error: 'PermissionDenied' });
      expect((await call(t, 'channels.removeMembers', { channelId, members: [newcomer.id] }, memberToken)).body).toMatchObject({ error: 'PermissionDenied' });
      for (const method of ['channels.addMembers', 'channels.removeMembers']) {
        expect((await call(t, method, { channelId, members: [member.id] }, newcomerToken)).body, method).toMatchObject({ error: 'UnknownChannel', parameter: 'channelId' });
      }
      expect((await call(t, 'channels.listMembers', { channelId }, newcomerToken)).body).toMatchObject({ error: 'UnknownChannel' });
      expect((await call(t, 'channels.addMembers', { channelId, members: [newcomer.id] }, modToken)).status).toBe(200);
      expect((await auditRows(t, team.id)).filter((row) => row.action.startsWith('channel.members'))).toEqual([]);
    });

    it('refuses an admin acting through an app’s token on a private channel the admin is not in', async () => {
      const { team, admin, newcomer, channelId } = await cast();
      const app = await t.f.app(team.id, admin.id, { name: 'Helper' });
      const { token } = await t.f.install(app.id, admin.id);
      expect((await call(t, 'channels.addMembers', { channelId, members: [newcomer.id] }, token)).body).toMatchObject({ error: 'UnknownChannel' });
      expect((await call(t, 'channels.listMembers', { channelId }, token)).body).toMatchObject({ error: 'UnknownChannel' });
    });

    it('lists every app with who made it and its installs, to a team admin only', async () => {
      const { team, admin, mod, member, adminToken, memberToken } = await cast();
      const polls = await t.f.app(team.id, mod.id, { name: 'Polls', description: 'Quick polls' });
      const zebra = await t.f.app(team.id, admin.id, { name: 'Zebra' });
      await t.f.install(polls.id, member.id);
      await t.f.install(polls.id, admin.id);
      expect((await call(t, 'apps.disable', { appId: polls.id }, adminToken)).status).toBe(200);
      expect((await call(t, 'apps.disableForTeam', { appId: zebra.id }, adminToken)).status).toBe(200);

      const listed = await call(t, 'admin.listApps', {}, adminToken);
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(listed.body.apps).toEqual([
        {
          id: polls.id, name: 'Polls', description: 'Quick polls', disabledByTeam: false, createdAt: expect.any(Number),
          developer: { id: mod.id, firstName: 'Mo', lastName: mod.last_name },
          // Oldest first; two made in the same millisecond come in either order.
          installs: expect.arrayContaining([
            { userId: member.id, firstName: 'Mel', lastName: member.last_name, installedAt: expect.any(Number), disabledByUser: false },
            { userId: admin.id, firstName: 'Ada', lastName: admin.last_name, installedAt: expect.any(Number), disabledByUser: true },
          ]),
        },
        { id: zebra.id, name: 'Zebra', description: expect.any(String), disabledByTeam: true, createdAt: expect.any(Number), developer: { id: admin.id, firstName: 'Ada', lastName: admin.last_name }, installs: [] },
      ]);
      expect(listed.body.apps[0].installs).toHaveLength(2);
      expect(listed.body.apps[0].installs[0].installedAt).toBeLessThanOrEqual(listed.body.apps[0].installs[1].installedAt);
      expect((await call(t, 'admin.listApps', {}, memberToken)).body).toMatchObject({ error: 'PermissionDenied', description: expect.stringMatching(/team admin/) });
    });
  });
}
