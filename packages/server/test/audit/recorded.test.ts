import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deactivatePerson } from '../../src/core/commands/people.js';
import { startAppListener, type AppListener } from '../apps/harness.js';
import { dialects } from '../helpers/dialects.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { linkIn, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { freePort } from '../invitations/harness.js';
import { auditRows, call, CLIENT, expectRow, PASSWORD, request, signIn } from './harness.js';
import { cliActor } from '../../src/core/audit/record.js';

/**
 * Every action of docs/operations.md "Audit log" that the API carries out, driven through real HTTP from
 * a client behind a trusted proxy: each leaves its row with the actor, the client's address and the target.
 */
for (const dialect of dialects) {
  describe(`the audit log records what people do [${dialect}]`, () => {
    let t: TestServer;
    let smtp: TestSmtp;
    const listeners: AppListener[] = [];
    beforeAll(async () => {
      smtp = await startSmtp();
      const port = await freePort();
      t = await startTestServer(dialect, { port, publicUrl: `http://127.0.0.1:${port}`, smtpUrl: smtp.url, mailFrom: 'Aviary <aviary@example.test>', trustProxy: ['127.0.0.1', '::1'] });
    });
    afterAll(async () => {
      for (const listener of listeners) await listener.close();
      await stopTestServer(t);
      await smtp.close();
    });

    const cast = async () => {
      const team = await t.f.team();
      const admin = await t.f.person(team.id, { role: 'admin', password: PASSWORD });
      const member = await t.f.person(team.id, { password: PASSWORD });
      return { team, admin, member, adminToken: await signIn(t, admin.email!), memberToken: await signIn(t, member.email!) };
    };

    it('sign-ins, failed sign-ins, password changes, revoked sessions and sign-outs', async () => {
      const { team, member, memberToken } = await cast();
      const signIns = (await auditRows(t, team.id)).filter((row) => row.action === 'session.signIn' && row.target_id === member.id);
      expect(signIns).toHaveLength(1);
      expect(signIns[0]).toMatchObject({ actor_user_id: member.id, address: CLIENT });

      expect((await request(t, 'POST', '/api/session', { email: member.email, password: 'not the password' })).status).toBe(401);
      await t.server.ctx.background.settled();
      await expectRow(t, team.id, 'session.signInFailed', { actor: null, address: CLIENT, target: ['user', member.id] });
      // An email nobody has leaves no row anywhere: there is no team to put it in.
      const before = await t.testStore.store.db.selectFrom('audit_log').select('id').execute();
      expect((await request(t, 'POST', '/api/session', { email: 'nobody@example.test', password: 'whatever it is' })).status).toBe(401);
      await t.server.ctx.background.settled();
      expect(await t.testStore.store.db.selectFrom('audit_log').select('id').execute()).toHaveLength(before.length);

      const other = await signIn(t, member.email!);
      expect((await call(t, 'users.changePassword', { currentPassword: PASSWORD, newPassword: 'another long passphrase' }, other)).status).toBe(200);
      const changed = await expectRow(t, team.id, 'user.passwordChanged', { actor: member.id, address: CLIENT, target: ['user', member.id] });
      expect(changed.details).not.toContain('passphrase');

      const third = await signIn(t, member.email!, 'another long passphrase');
      expect((await call(t, 'sessions.revoke', { all: true, exceptCurrent: true }, third)).status).toBe(200);
      await expectRow(t, team.id, 'session.revoked', { actor: member.id, address: CLIENT, target: ['user', member.id] });

      expect((await request(t, 'DELETE', '/api/session', undefined, third)).status).toBe(200);
      await expectRow(t, team.id, 'session.signOut', { actor: member.id, address: CLIENT, target: ['user', member.id] });
      expect(memberToken).toBeTruthy();
    });

    it('password resets asked for and completed', async () => {
      const { team, member } = await cast();
      expect((await call(t, 'users.requestPasswordReset', { email: member.email })).status).toBe(200);
      const mail = await smtp.nextMailTo(member.email!);
      await expectRow(t, team.id, 'user.passwordResetRequested', { actor: null, address: CLIENT, target: ['user', member.id] });
      const linkToken = linkIn(mail).split('#')[1];
      expect((await call(t, 'users.resetPassword', { linkToken, newPassword: 'a brand new passphrase' })).status).toBe(200);
      await expectRow(t, team.id, 'user.passwordReset', { actor: member.id, address: CLIENT, target: ['user', member.id] });
    });

    it('invitations, team settings, and an admin deleting someone else’s message (not their own)', async () => {
      const { team, admin, member, adminToken, memberToken } = await cast();
      const made = await call(t, 'invitations.create', {}, adminToken);
      await expectRow(t, team.id, 'invitation.created', { actor: admin.id, address: CLIENT, target: ['invitation', made.body.invitation.id] });
      const inviteToken = /\/invite\/([^/?#\s]+)/.exec(made.body.url)![1];
      const joined = await call(t, 'invitations.accept', { inviteToken, email: `joiner-${team.id.slice(-6).toLowerCase()}@example.test`, firstName: 'Jo', lastName: 'Iner', password: PASSWORD });
      expect(joined.status, JSON.stringify(joined.body)).toBe(200);
      await expectRow(t, team.id, 'invitation.accepted', { actor: joined.body.userId, address: CLIENT, target: ['user', joined.body.userId] });
      expect((await call(t, 'invitations.revoke', { invitationId: made.body.invitation.id }, adminToken)).status).toBe(200);
      await expectRow(t, team.id, 'invitation.revoked', { actor: admin.id, address: CLIENT, target: ['invitation', made.body.invitation.id] });

      expect((await call(t, 'team.updateSettings', { whoMayInvite: 'members' }, adminToken)).status).toBe(200);
      const settings = await expectRow(t, team.id, 'team.settingsChanged', { actor: admin.id, address: CLIENT, target: ['team', team.id] });
      expect(JSON.parse(settings.details)).toEqual({ whoMayInvite: 'members' });

      const theirs = await call(t, 'chat.sendFromComposer', { to: admin.id, text: 'a message the admin removes' }, memberToken);
      const own = await call(t, 'chat.sendFromComposer', { to: member.id, text: 'the admin’s own' }, adminToken);
      expect((await call(t, 'chat.deleteMessage', { messageUid: own.body.message.uid }, adminToken)).status).toBe(200);
      expect((await auditRows(t, team.id)).filter((row) => row.action.startsWith('message.'))).toEqual([]);
      expect((await call(t, 'chat.deleteMessage', { messageUid: theirs.body.message.uid }, adminToken)).status).toBe(200);
      const deleted = await expectRow(t, team.id, 'message.deletedByAdmin', { actor: admin.id, address: CLIENT, target: ['message', theirs.body.message.uid] });
      expect(JSON.parse(deleted.details)).toMatchObject({ author: member.id });
      expect(deleted.details).not.toContain('removes');
    });

    it('apps: created, secret rotated, bot enabled and its token regenerated, installed, disabled and enabled for the team, uninstalled, deleted', async () => {
      const { team, admin, member, adminToken, memberToken } = await cast();
      const listener = await startAppListener('sdk');
      listeners.push(listener);
      const created = await call(t, 'apps.create', { name: 'Audited', listenerUrl: listener.url }, memberToken);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const app = created.body.app;
      listener.useCredentials(app.id, app.secret);
      const target: [string, string] = ['app', app.id];
      await expectRow(t, team.id, 'app.created', { actor: member.id, address: CLIENT, target });
      const rotated = await call(t, 'apps.rotateSecret', { appId: app.id }, memberToken);
      expect(rotated.status).toBe(200);
      listener.useCredentials(app.id, rotated.body.secret);
      const row = await expectRow(t, team.id, 'app.secretRotated', { actor: member.id, address: CLIENT, target });
      expect(row.details).not.toContain(rotated.body.secret);
      expect((await call(t, 'apps.enableBot', { appId: app.id }, memberToken)).status).toBe(200);
      await expectRow(t, team.id, 'app.botEnabled', { actor: member.id, address: CLIENT, target });
      // With the app's secret, as a developer's tools call: the app is the actor, with no person and no address.
      const bySecret = await fetch(`${t.url}/v1/apps.regenerateBotToken`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${rotated.body.secret}`, 'x-forwarded-for': CLIENT }, body: JSON.stringify({ appId: app.id }) });
      expect(bySecret.status, await bySecret.clone().text()).toBe(200);
      await expectRow(t, team.id, 'app.botTokenRegenerated', { actor: null, address: null, target, appId: app.id });

      const installed = await call(t, 'apps.install', { appId: app.id }, memberToken);
      expect(installed.status, JSON.stringify(installed.body)).toBe(200);
      await expectRow(t, team.id, 'app.installed', { actor: member.id, address: CLIENT, target });
      expect((await call(t, 'apps.disableForTeam', { appId: app.id }, adminToken)).status).toBe(200);
      await expectRow(t, team.id, 'app.disabledForTeam', { actor: admin.id, address: CLIENT, target });
      expect((await call(t, 'apps.enableForTeam', { appId: app.id }, adminToken)).status).toBe(200);
      await expectRow(t, team.id, 'app.enabledForTeam', { actor: admin.id, address: CLIENT, target });
      expect((await call(t, 'apps.uninstall', { appId: app.id }, memberToken)).status).toBe(200);
      await expectRow(t, team.id, 'app.uninstalled', { actor: member.id, address: CLIENT, target });
      expect((await call(t, 'apps.delete', { appId: app.id }, memberToken)).status).toBe(200);
      await expectRow(t, team.id, 'app.deleted', { actor: member.id, address: CLIENT, target });
    });

    it('a deactivation, with the actor given (the command line by default, without an address)', async () => {
      const { team, admin, member } = await cast();
      await deactivatePerson(t.server.ctx, { userId: admin.id, address: CLIENT }, { userId: member.id });
      await expectRow(t, team.id, 'user.deactivated', { actor: admin.id, address: CLIENT, target: ['user', member.id] });
      await deactivatePerson(t.server.ctx, cliActor, { userId: admin.id });
      expect((await auditRows(t, team.id)).filter((row) => row.action === 'user.deactivated' && row.target_id === admin.id)).toMatchObject([{ actor_user_id: null, address: null }]);
    });
  });
}
