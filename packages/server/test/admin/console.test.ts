import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../helpers/dialects.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { linkIn, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { freePort } from '../invitations/harness.js';
import { auditRows, call, CLIENT, expectRow, PASSWORD, request, signIn } from '../audit/harness.js';

/**
 * The admin console's methods (admin.*, channels.archive/unarchive/rename/convertToPrivate, the team's
 * settings) through real HTTP: what each changes, its audit row, its stream entry, and the refusals.
 */
for (const dialect of dialects) {
  describe(`the admin console's methods [${dialect}]`, () => {
    let t: TestServer;
    let smtp: TestSmtp;
    beforeAll(async () => {
      smtp = await startSmtp();
      const port = await freePort();
      t = await startTestServer(dialect, { port, publicUrl: `http://127.0.0.1:${port}`, smtpUrl: smtp.url, mailFrom: 'Aviary <aviary@example.test>', trustProxy: ['127.0.0.1', '::1'] });
    });
    afterAll(async () => {
      await stopTestServer(t);
      await smtp.close();
    });

    const db = () => t.testStore.store.db;
    const cast = async () => {
      const team = await t.f.team();
      const admin = await t.f.person(team.id, { role: 'admin', password: PASSWORD, firstName: 'Ada' });
      const member = await t.f.person(team.id, { password: PASSWORD, firstName: 'Mo' });
      return { team, admin, member, adminToken: await signIn(t, admin.email!), memberToken: await signIn(t, member.email!) };
    };
    /** A channel made by `token`'s person (its moderator), as channels.create makes it. */
    const channelOf = async (token: string, type: 'public' | 'private' = 'public', members: string[] = []) => {
      const made = await call(t, 'channels.create', { name: `room ${Math.random().toString(36).slice(2, 8)}`, type, members }, token);
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      return { id: made.body.id as string, name: (await call(t, 'channels.getInfo', { channelId: made.body.id }, token)).body.name as string };
    };
    const entries = async (teamId: string, type: string) =>
      (await db().selectFrom('stream_entries').selectAll().where('team_id', '=', teamId).where('type', '=', type).orderBy('seq').execute()).map((row) => JSON.parse(row.payload));

    it('refuses every console method to a member, naming what only an admin may do', async () => {
      const { member, memberToken, admin } = await cast();
      const channel = await channelOf(memberToken);
      const tries: Array<[string, unknown]> = [
        ['admin.listPeople', {}],
        ['admin.listChannels', {}],
        ['admin.setRole', { userId: member.id, role: 'admin' }],
        ['admin.deactivatePerson', { userId: admin.id }],
        ['admin.reactivatePerson', { userId: admin.id }],
        ['admin.resetPassword', { userId: admin.id }],
        ['channels.archive', { channelId: channel.id }],
        ['channels.unarchive', { channelId: channel.id }],
        // channels.rename is not among them: the member moderates the channel they made (client/channels.test.ts).
        ['channels.convertToPrivate', { channelId: channel.id }],
        ['team.updateSettings', { name: 'Mine' }],
      ];
      for (const [method, params] of tries) {
        const answer = await call(t, method, params, memberToken);
        expect(answer.status, method).toBe(403);
        expect(answer.body.error, method).toBe('PermissionDenied');
        expect(answer.body.description, method).toMatch(/team admin/);
      }
    });

    it('lists people with role and last activity, changes roles, and never demotes the last admin', async () => {
      const { team, admin, member, adminToken, memberToken } = await cast();
      const listed = await call(t, 'admin.listPeople', {}, adminToken);
      expect(listed.status).toBe(200);
      expect(listed.body.people.map((p: { user: { id: string } }) => p.user.id)).toEqual([admin.id, member.id]);
      expect(listed.body.people[1]).toMatchObject({ user: { role: 'user' }, deactivatedAt: null });
      expect(listed.body.people[1].lastActiveAt).toEqual(expect.any(Number));
      // Signed out (the session gone), the person was still active then: not "never".
      expect((await request(t, 'DELETE', '/api/session', undefined, memberToken)).status).toBe(200);
      const afterSignOut = await call(t, 'admin.listPeople', {}, adminToken);
      expect(afterSignOut.body.people[1].lastActiveAt).toBe(listed.body.people[1].lastActiveAt);

      const last = await call(t, 'admin.setRole', { userId: admin.id, role: 'user' }, adminToken);
      expect(last.status).toBe(403);
      expect(last.body).toMatchObject({ error: 'PermissionDenied', parameter: 'userId' });
      expect(last.body.description).toMatch(/without an admin/);

      const promoted = await call(t, 'admin.setRole', { userId: member.id, role: 'admin' }, adminToken);
      expect(promoted.body.person.user.role).toBe('admin');
      const guest = await call(t, 'admin.setRole', { userId: member.id, role: 'guest' }, adminToken);
      expect(guest.body.person.user.role).toBe('guest');
      const rows = (await auditRows(t, team.id)).filter((row) => row.action === 'user.roleChanged');
      expect(rows.map((row) => JSON.parse(row.details))).toEqual([{ from: 'user', to: 'admin' }, { from: 'admin', to: 'guest' }]);
      expect(rows[0]).toMatchObject({ actor_user_id: admin.id, address: CLIENT, target_id: member.id });
      expect(await entries(team.id, 'user.roleChanged')).toEqual([{ userId: member.id, role: 'admin' }, { userId: member.id, role: 'guest' }]);

      const bad = await call(t, 'admin.setRole', { userId: member.id, role: 'owner' }, adminToken);
      expect(bad.body).toMatchObject({ error: 'InvalidParameter', parameter: 'role' });
      const stranger = (await cast()).member;
      expect((await call(t, 'admin.setRole', { userId: stranger.id, role: 'admin' }, adminToken)).body).toMatchObject({ error: 'UnknownUser', parameter: 'userId' });
    });

    it('never lets two admins taking each other’s role (or account) at once leave the team without an admin', async () => {
      for (const method of ['admin.setRole', 'admin.deactivatePerson'] as const) {
        const { team, admin, member, adminToken, memberToken } = await cast();
        expect((await call(t, 'admin.setRole', { userId: member.id, role: 'admin' }, adminToken)).status).toBe(200);
        const params = (userId: string) => (method === 'admin.setRole' ? { userId, role: 'user' } : { userId });
        const answers = await Promise.all([call(t, method, params(member.id), adminToken), call(t, method, params(admin.id), memberToken)]);
        // One wins; the other is refused: by the last-admin rule, or (when it arrived after the first
        // committed) because its caller is no longer an admin, or no longer signed in.
        expect(answers.filter((answer) => answer.status === 200), method).toHaveLength(1);
        expect([401, 403], method).toContain(answers.find((answer) => answer.status !== 200)!.status);
        const admins = await db().selectFrom('users').select('id').where('team_id', '=', team.id).where('role', '=', 'admin').where('deactivated_at', 'is', null).execute();
        expect(admins, method).toHaveLength(1);
      }
    });

    it('deactivates at once (sessions end, messages stay) and reactivates; never oneself', async () => {
      const { team, admin, member, adminToken, memberToken } = await cast();
      const channel = await channelOf(adminToken, 'private', [member.id]);
      const sent = await call(t, 'chat.sendMessage', { to: channel.id, text: 'before I go' }, memberToken);
      expect(sent.status).toBe(200);
      expect((await call(t, 'admin.deactivatePerson', { userId: admin.id }, adminToken)).body).toMatchObject({ error: 'PermissionDenied', parameter: 'userId' });

      const gone = await call(t, 'admin.deactivatePerson', { userId: member.id }, adminToken);
      expect(gone.body.person.deactivatedAt).toEqual(expect.any(Number));
      expect((await call(t, 'users.getInfo', {}, memberToken)).status).toBe(401);
      const history = await call(t, 'chat.fetchMessages', { chat: channel.id }, adminToken);
      expect(history.body.map((m: { text: string }) => m.text)).toContain('before I go');
      await expectRow(t, team.id, 'user.deactivated', { actor: admin.id, address: CLIENT, target: ['user', member.id] });

      const back = await call(t, 'admin.reactivatePerson', { userId: member.id }, adminToken);
      expect(back.body.person.deactivatedAt).toBeNull();
      // The old session stays ended; the person signs in again.
      expect((await call(t, 'users.getInfo', {}, memberToken)).status).toBe(401);
      expect((await call(t, 'users.getInfo', {}, await signIn(t, member.email!))).status).toBe(200);
      await expectRow(t, team.id, 'user.reactivated', { actor: admin.id, address: CLIENT, target: ['user', member.id] });
    });

    it('resets a password with a link to hand over, or by mail, each link single-use', async () => {
      const { team, admin, member, adminToken } = await cast();
      const handed = await call(t, 'admin.resetPassword', { userId: member.id }, adminToken);
      expect(handed.status).toBe(200);
      expect(handed.body).toMatchObject({ mailed: false, link: expect.stringMatching(/\/reset-password#pwr_/) });
      const token = handed.body.link.split('#')[1];
      const used = await request(t, 'POST', '/v1/users.resetPassword', { linkToken: token, newPassword: 'a brand new passphrase' });
      expect(used.status, JSON.stringify(used.body)).toBe(200);
      expect((await request(t, 'POST', '/v1/users.resetPassword', { linkToken: token, newPassword: 'another new passphrase' })).body.error).toBe('AccountLinkUnusable');
      expect(await signIn(t, member.email!, 'a brand new passphrase')).toMatch(/^as_s_/);

      const mailed = await call(t, 'admin.resetPassword', { userId: member.id, email: true }, adminToken);
      expect(mailed.body).toEqual({ mailed: true, expiresAt: expect.any(Number) });
      const mail = await smtp.nextMailTo(member.email!);
      expect(linkIn(mail)).toMatch(/\/reset-password#pwr_/);
      const rows = (await auditRows(t, team.id)).filter((row) => row.action === 'user.passwordResetByAdmin');
      expect(rows.map((row) => [row.actor_user_id, row.target_id, JSON.parse(row.details)])).toEqual([
        [admin.id, member.id, { mailed: false }],
        [admin.id, member.id, { mailed: true }],
      ]);
      expect(JSON.stringify(rows)).not.toMatch(/pwr_/);

      // A team that signs in through its provider alone has no password to reset: refused, and "Forgot password?" mails nothing.
      await db().insertInto('team_sign_in').values({
        team_id: team.id, password_enabled: 0, oidc_issuer: 'https://idp.example.test', oidc_client_id: 'aviary', oidc_client_secret_sealed: null,
        oidc_allowed_domains: '[]', oidc_create_accounts: 1, updated_at: Date.now(),
      }).execute();
      const off = await call(t, 'admin.resetPassword', { userId: member.id }, adminToken);
      expect(off).toMatchObject({ status: 403, body: { error: 'PasswordSignInOff' } });
      const linksBefore = await db().selectFrom('account_tokens').select('token_hash').where('user_id', '=', member.id).execute();
      expect((await request(t, 'POST', '/v1/users.requestPasswordReset', { email: member.email })).status).toBe(200);
      await t.server.ctx.background.settled();
      expect(await db().selectFrom('account_tokens').select('token_hash').where('user_id', '=', member.id).execute()).toHaveLength(linksBefore.length);
    });

    it('archives (read-only, still readable), unarchives, renames and makes private any channel, the admin a member or not', async () => {
      const { team, admin, adminToken, memberToken } = await cast();
      const channel = await channelOf(memberToken, 'public');
      const secret = await channelOf(memberToken, 'private');
      const all = await call(t, 'admin.listChannels', {}, adminToken);
      expect(all.body.channels.map((c: { channel: { id: string }; isMember: boolean }) => [c.channel.id, c.isMember]).sort()).toEqual([[channel.id, false], [secret.id, false]].sort());

      expect((await call(t, 'chat.sendMessage', { to: channel.id, text: 'said before' }, memberToken)).status).toBe(200);
      const archived = await call(t, 'channels.archive', { channelId: channel.id }, adminToken);
      expect(archived.body.channel.archivedAt).toEqual(expect.any(Number));
      const refused = await call(t, 'chat.sendMessage', { to: channel.id, text: 'after' }, memberToken);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: 'ChannelArchived', parameter: 'to' });
      expect(refused.body.description).toMatch(/is archived: it is read-only/);
      const read = await call(t, 'chat.fetchMessages', { chat: channel.id }, memberToken);
      expect(read.body.map((m: { text: string }) => m.text)).toEqual(['said before']);
      const listed = await call(t, 'channels.list', {}, memberToken);
      expect(listed.body.find((c: { id: string }) => c.id === channel.id).archivedAt).toEqual(expect.any(Number));

      expect((await call(t, 'channels.unarchive', { channelId: channel.id }, adminToken)).body.channel.archivedAt).toBeUndefined();
      expect((await call(t, 'chat.sendMessage', { to: channel.id, text: 'again' }, memberToken)).status).toBe(200);

      const renamed = await call(t, 'channels.rename', { channelId: secret.id, name: '  plans 2027 ' }, adminToken);
      expect(renamed.body.channel.name).toBe('plans 2027');
      expect((await call(t, 'channels.rename', { channelId: secret.id, name: '\u200b\u2800' }, adminToken)).body).toMatchObject({ error: 'InvalidParameter', parameter: 'name' });
      expect((await call(t, 'channels.convertToPrivate', { channelId: channel.id }, adminToken)).body.channel.type).toBe('private');
      const theirs = await channelOf((await cast()).memberToken, 'public');
      expect((await call(t, 'channels.archive', { channelId: theirs.id }, adminToken)).body).toMatchObject({ error: 'UnknownChannel', parameter: 'channelId' });

      const actions = (await auditRows(t, team.id)).filter((row) => row.action.startsWith('channel.')).map((row) => [row.action, row.target_id, row.actor_user_id]);
      expect(actions).toEqual([
        ['channel.archived', channel.id, admin.id],
        ['channel.unarchived', channel.id, admin.id],
        ['channel.renamed', secret.id, admin.id],
        ['channel.madePrivate', channel.id, admin.id],
      ]);
      const frames = await entries(team.id, 'channel.updated');
      expect(frames.map((f) => [f.channel.id, f.channel.archivedAt !== undefined, f.channel.name, f.channel.type])).toEqual([
        [channel.id, true, channel.name, 'public'],
        [channel.id, false, channel.name, 'public'],
        [secret.id, false, 'plans 2027', 'private'],
        [channel.id, false, channel.name, 'private'],
      ]);
    });

    it('keeps an archived channel’s messages as they are: no edits, deletions, reactions or pins, until unarchived', async () => {
      const { admin, adminToken, memberToken } = await cast();
      const channel = await channelOf(memberToken, 'public', [admin.id]);
      const sent = await call(t, 'chat.sendMessage', { to: channel.id, text: 'said before' }, memberToken);
      const messageUid = sent.body.uid as string;
      expect((await call(t, 'reactions.add', { messageUid, emoji: '👍' }, memberToken)).status).toBe(200);
      expect((await call(t, 'pins.add', { messageUid }, memberToken)).status).toBe(200);
      expect((await call(t, 'channels.archive', { channelId: channel.id }, adminToken)).status).toBe(200);

      const refusals = [
        ['chat.updateMessage', { messageUid, text: 'rewritten' }, memberToken],
        ['chat.deleteMessage', { messageUid }, memberToken],
        ['chat.deleteMessage', { messageUid }, adminToken],
        ['reactions.add', { messageUid, emoji: '🎉' }, memberToken],
        ['reactions.remove', { messageUid, emoji: '👍' }, memberToken],
        ['pins.remove', { messageUid }, memberToken],
      ] as const;
      for (const [method, params, token] of refusals) {
        const refused = await call(t, method, params, token);
        expect(refused.status, `${method}: ${JSON.stringify(refused.body)}`).toBe(409);
        expect(refused.body).toMatchObject({ error: 'ChannelArchived', parameter: 'messageUid' });
        expect(refused.body.description).toMatch(/is archived: its messages take no edits, deletions, reactions or pins/);
      }
      const [kept] = (await call(t, 'chat.fetchMessages', { chat: channel.id }, memberToken)).body;
      expect([kept.text, kept.editedAt, kept.deletedAt, kept.reactions.map((r: { emoji: string }) => r.emoji), kept.pinned !== undefined]).toEqual(['said before', undefined, undefined, ['👍'], true]);
      // What is the person's own, and changes nothing of the message, still works.
      expect((await call(t, 'saved.add', { messageUid }, memberToken)).status).toBe(200);

      expect((await call(t, 'channels.unarchive', { channelId: channel.id }, adminToken)).status).toBe(200);
      expect((await call(t, 'chat.updateMessage', { messageUid, text: 'rewritten' }, memberToken)).status).toBe(200);
      expect((await call(t, 'reactions.add', { messageUid, emoji: '🎉' }, memberToken)).status).toBe(200);
    });

    it('changes the team’s name and who may create channels, with validation', async () => {
      const { team, adminToken, memberToken } = await cast();
      const changed = await call(t, 'team.updateSettings', { name: ' Birds ', whoMayCreateChannels: 'admins' }, adminToken);
      expect(changed.body.team).toMatchObject({ name: 'Birds', whoMayCreateChannels: 'admins' });
      const refused = await call(t, 'channels.create', { name: 'mine', members: [] }, memberToken);
      expect(refused.status).toBe(403);
      expect(refused.body.description).toMatch(/its admins only may create channels/);
      expect((await call(t, 'channels.create', { name: 'theirs', members: [] }, adminToken)).status).toBe(200);
      expect((await call(t, 'team.updateSettings', { whoMayCreateChannels: 'nobody' }, adminToken)).body).toMatchObject({ error: 'InvalidParameter', parameter: 'whoMayCreateChannels' });
      expect((await call(t, 'team.updateSettings', { name: '\u202e' }, adminToken)).body).toMatchObject({ error: 'InvalidParameter', parameter: 'name' });
      const row = (await auditRows(t, team.id)).find((r) => r.action === 'team.settingsChanged')!;
      expect(JSON.parse(row.details)).toMatchObject({ name: ' Birds ', whoMayCreateChannels: 'admins' });
    });
  });
}
