import { expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { forEachDialect } from '../helpers/server.js';
import { callMethod, sessionOf, signInAnswer, tokenOf } from './harness.js';

/** The server's clock, moved on by tests of expiry; never the real date alone. */
let skew = 0;
const now = () => Date.now() + skew;
const HOUR = 60 * 60 * 1000;
const PASSWORD = 'a long and private passphrase';

forEachDialect(
  'invitations',
  (t) => {
    async function team() {
      const { id } = await t().f.team();
      const admin = await t().f.person(id, { role: 'admin', firstName: 'Ada', lastName: 'Admin' });
      const member = await t().f.person(id, { firstName: 'Mel', lastName: 'Member' });
      const general = await createChannel({ ...t().server.ctx, now }, { user: admin, appId: null }, { name: `general-${id.slice(-4)}`, type: 'public', members: [member.id] });
      return { id, admin, member, asAdmin: await sessionOf(t(), admin), asMember: await sessionOf(t(), member), channelId: general.channel.id };
    }

    const signUp = (token: string, fields: Record<string, unknown>) =>
      callMethod(t().url, 'invitations.accept', { inviteToken: token, firstName: 'New', lastName: 'Person', password: PASSWORD, timezone: 'Europe/Paris', ...fields });

    it('an admin makes a link for two; two people sign up with it, join its channel and sign in; a third is refused', async () => {
      const { asAdmin, admin, channelId } = await team();
      const made = await asAdmin('invitations.create', { maxUses: 2, channelIds: [channelId] });
      expect(made.status).toBe(200);
      expect(made.body).toMatchObject({ mailed: false, invitation: { email: null, role: 'user', maxUses: 2, uses: 0, state: 'active', createdBy: admin.id, channelIds: [channelId] } });
      const token = tokenOf(made.body.url);

      const info = await callMethod(t().url, 'invitations.getInfo', { inviteToken: token });
      expect(info.body).toMatchObject({ invitedBy: 'Ada Admin', role: 'user', email: null, team: { id: admin.team_id } });

      const first = await signUp(token, { email: 'one@example.test' });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ email: 'one@example.test', emailVerified: true, team: { id: admin.team_id } });
      const user = await t().testStore.store.db.selectFrom('users').selectAll().where('id', '=', first.body.userId).executeTakeFirstOrThrow();
      expect(user.role).toBe('user');
      expect(user.timezone).toBe('Europe/Paris');
      const members = await asAdmin('channels.listMembers', { channelId });
      expect(JSON.stringify(members.body)).toContain(first.body.userId);
      expect((await signInAnswer(t().url, 'one@example.test', PASSWORD)).status).toBe(200);

      expect((await signUp(token, { email: 'two@example.test' })).status).toBe(200);
      const third = await signUp(token, { email: 'three@example.test' });
      expect(third).toMatchObject({ status: 410, body: { error: 'InvitationUnusable', parameter: 'inviteToken' } });
      expect(third.body.description).toMatch(/used as many times/);
      const listed = await asAdmin('invitations.list');
      expect(listed.body.invitations[0]).toMatchObject({ id: made.body.invitation.id, uses: 2, state: 'usedUp' });
    });

    it('refuses an expired link and a revoked one, each saying why, and an unknown token', async () => {
      const { asAdmin } = await team();
      const expiring = await asAdmin('invitations.create', { expiresInHours: 1 });
      const revoked = await asAdmin('invitations.create', {});
      expect((await asAdmin('invitations.revoke', { invitationId: revoked.body.invitation.id })).body.invitation.state).toBe('revoked');
      const gone = await signUp(tokenOf(revoked.body.url), { email: 'late@example.test' });
      expect(gone).toMatchObject({ status: 410, body: { error: 'InvitationUnusable' } });
      expect(gone.body.description).toMatch(/revoked/);

      skew += 2 * HOUR;
      try {
        const late = await callMethod(t().url, 'invitations.getInfo', { inviteToken: tokenOf(expiring.body.url) });
        expect(late).toMatchObject({ status: 410, body: { error: 'InvitationUnusable' } });
        expect(late.body.description).toMatch(/expired/);
      } finally {
        skew -= 2 * HOUR;
      }
      const unknown = await callMethod(t().url, 'invitations.getInfo', { inviteToken: 'inv_nothing' });
      expect(unknown.body.description).toMatch(/no such invitation/);
    });

    it('a member may invite only when the team lets members; an admin changes that; a member lists and revokes only their own', async () => {
      const { asAdmin, asMember, admin } = await team();
      const refused = await asMember('invitations.create', {});
      expect(refused).toMatchObject({ status: 403, body: { error: 'PermissionDenied' } });
      expect(refused.body.description).toMatch(/only admins may invite/);
      expect((await asMember('team.updateSettings', { whoMayInvite: 'members' })).status).toBe(403);
      const changed = await asAdmin('team.updateSettings', { whoMayInvite: 'members' });
      expect(changed.body.team).toMatchObject({ whoMayInvite: 'members', appCreators: 'members' });

      const mine = await asMember('invitations.create', { email: 'friend@example.test' });
      expect(mine.status).toBe(200);
      expect(mine.body).toMatchObject({ mailed: false, invitation: { email: 'friend@example.test', maxUses: 1 } });
      const admins = await asAdmin('invitations.create', {});
      expect((await asMember('invitations.list')).body.invitations.map((i: { id: string }) => i.id)).toEqual([mine.body.invitation.id]);
      expect((await asMember('invitations.revoke', { invitationId: admins.body.invitation.id })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'invitationId' });
      // Guests may not be invited by a member to a channel they do not moderate.
      const { channel } = await createChannel({ ...t().server.ctx, now }, { user: admin, appId: null }, { name: `mods-${admin.id.slice(-4)}`, type: 'public', members: [] });
      const guest = await asMember('invitations.create', { role: 'guest', channelIds: [channel.id] });
      expect(guest).toMatchObject({ status: 403, body: { error: 'PermissionDenied', parameter: 'channelIds' } });
      expect((await asMember('invitations.create', { channelIds: ['g:zzzzzzzzzzzzzzzz'] })).body).toMatchObject({ error: 'UnknownChannel', parameter: 'channelIds' });
    });

    it('a guest invitation names channels; the guest joins only those and may not invite', async () => {
      const { asAdmin, channelId } = await team();
      expect((await asAdmin('invitations.create', { role: 'guest' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'channelIds' });
      const made = await asAdmin('invitations.create', { role: 'guest', channelIds: [channelId] });
      const joined = await signUp(tokenOf(made.body.url), { email: 'guest@example.test' });
      const guest = await t().testStore.store.db.selectFrom('users').selectAll().where('id', '=', joined.body.userId).executeTakeFirstOrThrow();
      expect(guest.role).toBe('guest');
      const asGuest = await sessionOf(t(), guest);
      expect((await asGuest('invitations.create', {})).body).toMatchObject({ error: 'PermissionDenied' });
      expect((await asGuest('channels.list')).body.map((c: { id: string }) => c.id)).toEqual([channelId]);
    });

    it('is used with its maker’s standing as it is then: channels they can no longer add to are left out, and a maker who may no longer invite ends it', async () => {
      const { id, asAdmin, asMember, admin, member, channelId } = await team();
      const db = t().testStore.store.db;
      expect((await asAdmin('team.updateSettings', { whoMayInvite: 'members' })).status).toBe(200);
      const ctx = { ...t().server.ctx, now };
      const secret = (await createChannel(ctx, { user: member, appId: null }, { name: `secret-${id.slice(-4)}`, type: 'private', members: [] })).channel.id;
      const open = (await createChannel(ctx, { user: member, appId: null }, { name: `open-${id.slice(-4)}`, type: 'public', members: [] })).channel.id;
      const shelved = (await createChannel(ctx, { user: member, appId: null }, { name: `shelved-${id.slice(-4)}`, type: 'public', members: [admin.id] })).channel.id;
      const link = await asMember('invitations.create', { maxUses: 5, channelIds: [channelId, secret, open, shelved] });
      const guestLink = await asMember('invitations.create', { role: 'guest', maxUses: 5, channelIds: [secret] });
      const channelsOf = async (userId: string) => (await db.selectFrom('channel_members').select('channel_id').where('user_id', '=', userId).execute()).map((row) => row.channel_id).sort();

      // Still standing: every channel is added.
      const first = await signUp(tokenOf(link.body.url), { email: 'first@example.test' });
      expect(await channelsOf(first.body.userId)).toEqual([channelId, secret, open, shelved].sort());
      // The maker leaves the private channel; the public one is made private; one is archived.
      expect((await asMember('channels.removeMembers', { channelId: secret, members: [member.id] })).status).toBe(200);
      expect((await asAdmin('channels.convertToPrivate', { channelId: open })).status).toBe(200);
      expect((await asMember('channels.removeMembers', { channelId: open, members: [member.id] })).status).toBe(200);
      expect((await asAdmin('channels.archive', { channelId: shelved })).status).toBe(200);
      const second = await signUp(tokenOf(link.body.url), { email: 'second@example.test' });
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(await channelsOf(second.body.userId)).toEqual([channelId]);
      // A guest's invitation left with no channel is unusable, and uses nothing.
      const guest = await signUp(tokenOf(guestLink.body.url), { email: 'guest2@example.test' });
      expect(guest).toMatchObject({ status: 410, body: { error: 'InvitationUnusable', parameter: 'inviteToken' } });
      expect(guest.body.description).toMatch(/None of the channels/);

      // Members may no longer invite: the member's link ends with it, and comes back with it.
      expect((await asAdmin('team.updateSettings', { whoMayInvite: 'admins' })).status).toBe(200);
      const refused = await signUp(tokenOf(link.body.url), { email: 'third@example.test' });
      expect(refused).toMatchObject({ status: 410, body: { error: 'InvitationUnusable', parameter: 'inviteToken' } });
      expect(refused.body.description).toMatch(/can no longer invite people/);
      expect((await callMethod(t().url, 'invitations.getInfo', { inviteToken: tokenOf(link.body.url) })).body).toMatchObject({ error: 'InvitationUnusable', parameter: 'inviteToken' });
      // The list says so: paused, not active.
      const listedState = async () => (await asAdmin('invitations.list')).body.invitations.find((i: { id: string }) => i.id === link.body.invitation.id).state;
      expect(await listedState()).toBe('paused');
      expect((await asAdmin('team.updateSettings', { whoMayInvite: 'members' })).status).toBe(200);
      expect(await listedState()).toBe('active');
      expect((await signUp(tokenOf(link.body.url), { email: 'third@example.test' })).status).toBe(200);
      // A deactivated maker's link is unusable.
      expect((await asAdmin('admin.deactivatePerson', { userId: member.id })).status).toBe(200);
      expect((await signUp(tokenOf(link.body.url), { email: 'fourth@example.test' })).body).toMatchObject({ error: 'InvitationUnusable' });
      expect((await asAdmin('invitations.list')).body.invitations.find((i: { id: string }) => i.id === link.body.invitation.id)).toMatchObject({ uses: 3, state: 'paused' });
    });

    it('invites an address once: not one with an account in the team, nor while its invitation waits; revoked, it may be invited again', async () => {
      const { asAdmin, member } = await team();
      const taken = await asAdmin('invitations.create', { email: member.email });
      expect(taken.body).toMatchObject({ error: 'InvalidParameter', parameter: 'email', description: expect.stringMatching(/already has an account in this team/) });
      const first = await asAdmin('invitations.create', { email: 'twice@example.test' });
      expect(first.status).toBe(200);
      const again = await asAdmin('invitations.create', { email: 'Twice@Example.test' });
      expect(again.body).toMatchObject({ error: 'InvalidParameter', parameter: 'email', description: expect.stringMatching(/is still waiting; revoke it/) });
      expect((await asAdmin('invitations.revoke', { invitationId: first.body.invitation.id })).status).toBe(200);
      expect((await asAdmin('invitations.create', { email: 'twice@example.test' })).status).toBe(200);
    });

    it('a refused sign-up uses nothing: a common password, a taken email, another address than the one invited', async () => {
      const { asAdmin, member } = await team();
      const made = await asAdmin('invitations.create', { email: 'invited@example.test' });
      const token = tokenOf(made.body.url);
      expect((await signUp(token, { password: 'password123' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'password' });
      expect((await signUp(token, { email: 'other@example.test' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'email' });
      expect((await signUp(token, { timezone: 'Mars/Olympus' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'timezone' });
      const link = await asAdmin('invitations.create', {});
      expect((await signUp(tokenOf(link.body.url), { email: member.email })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'email' });
      const ok = await signUp(token, {});
      expect(ok.body).toMatchObject({ email: 'invited@example.test', emailVerified: true });
    });

    it('refuses a password sign-up in a team that signs in through its provider alone, and uses nothing', async () => {
      const { id, asAdmin } = await team();
      const made = await asAdmin('invitations.create', {});
      await t().testStore.store.db.insertInto('team_sign_in').values({
        team_id: id, password_enabled: 0, oidc_issuer: 'https://idp.example.test', oidc_client_id: 'aviary', oidc_client_secret_sealed: null,
        oidc_allowed_domains: '[]', oidc_create_accounts: 1, updated_at: Date.now(),
      }).execute();
      const refused = await signUp(tokenOf(made.body.url), { email: 'sso@example.test' });
      expect(refused).toMatchObject({ status: 403, body: { error: 'PasswordSignInOff', description: expect.stringMatching(/single sign-on/) } });
      expect(await t().testStore.store.db.selectFrom('users').select('id').where('email', '=', 'sso@example.test').execute()).toEqual([]);
      expect((await asAdmin('invitations.list')).body.invitations[0]).toMatchObject({ id: made.body.invitation.id, uses: 0, state: 'active' });
    });

    it('without SMTP, a password reset by email is refused, naming what to do instead', async () => {
      const answer = await callMethod(t().url, 'users.requestPasswordReset', { email: 'anyone@example.test' });
      expect(answer).toMatchObject({ status: 409, body: { error: 'MailNotConfigured' } });
      expect(answer.body.description).toMatch(/team admin/);
    });
  },
  {},
  { now },
);
