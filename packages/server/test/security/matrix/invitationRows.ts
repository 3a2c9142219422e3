import { expect } from 'vitest';
import { createInvitation } from '../../../src/core/commands/invitations.js';
import type { TestServer } from '../../helpers/server.js';
import { credentials, credentialSuffix, denied, everyone, get, OK, post, sessionGate, type Row } from './rows.js';
import type { World } from './world.js';

/**
 * Invitations, password resets and email verification × every actor (docs/reference/methods.md,
 * invitations.*, users.requestPasswordReset…). Team A lets only admins invite (the default), so only the
 * admin makes, and revokes, invitations; a member lists only their own (none), a guest none at all.
 * The methods anyone calls take no credential: whatever an actor presents is not looked at, and every
 * actor gets the same answer for a token that is no invitation's or link's. The matrix's server sends
 * no mail, so a password reset by email is MailNotConfigured for all.
 */
const call = (method: string, params: Record<string, unknown> = {}) => post(`/v1/${method}`, params);

const adminOnly = (refusal: ReturnType<typeof denied>): Row['expect'] => ({
  ...sessionGate,
  otherTeam: refusal, nonMember: refusal, nonInstaller: refusal, guest: refusal, userDisabled: refusal, teamDisabled: refusal,
  anotherDeveloper: refusal, admin: OK, owner: refusal,
});

/** One invitation of team A's admin per world, which the revoke cells aim at (revoking twice is no change). */
const invitations = new WeakMap<World, string>();
async function adminsInvitation({ t, w }: { t: TestServer; w: World }) {
  if (!invitations.has(w)) invitations.set(w, (await createInvitation(t.server.ctx, { person: w.actors.admin.user!, address: null }, {})).invitation.id);
  return {};
}

const noSuchInvitation = denied('InvitationUnusable', { parameter: 'inviteToken' });
const noSuchLink = denied('AccountLinkUnusable', { parameter: 'linkToken' });

/** The methods anyone calls, once for each credential an actor may present: none of them is looked at. */
const anyoneRows: Array<Omit<Row, 'credential'>> = [
  { route: 'v1 invitations.getInfo', request: () => call('invitations.getInfo', { inviteToken: 'inv_none' }), expect: everyone(noSuchInvitation) },
  {
    route: 'v1 invitations.accept',
    request: () => call('invitations.accept', { inviteToken: 'inv_none', email: 'matrix@example.test', firstName: 'M', lastName: 'X', password: 'a long passphrase here' }),
    expect: everyone(noSuchInvitation),
  },
  { route: 'v1 users.requestPasswordReset', request: () => call('users.requestPasswordReset', { email: 'owner@example.test' }), expect: everyone(denied('MailNotConfigured')) },
  { route: 'v1 users.resetPassword', request: () => call('users.resetPassword', { linkToken: 'pwr_none', newPassword: 'a long passphrase here' }), expect: everyone(noSuchLink) },
  { route: 'v1 users.verifyEmail', request: () => call('users.verifyEmail', { linkToken: 'ver_none' }), expect: everyone(noSuchLink) },
];

export const invitationRows: Row[] = [
  {
    route: 'v1 invitations.create with a session',
    credential: 'session',
    request: () => call('invitations.create', {}),
    expect: adminOnly(denied('PermissionDenied')),
    reveals: (body) => expect(body.invitation.state).toBe('active'),
  },
  {
    route: 'v1 invitations.list with a session',
    credential: 'session',
    request: () => call('invitations.list'),
    expect: { ...adminOnly(OK), guest: denied('PermissionDenied') },
    reveals: (body, { a }) => expect(body.invitations.every((i: { createdBy: string }) => a.kind === 'admin' || i.createdBy === a.user?.id)).toBe(true),
  },
  {
    route: 'v1 invitations.revoke with a session',
    credential: 'session',
    prepare: adminsInvitation,
    request: (_ids, w) => call('invitations.revoke', { invitationId: invitations.get(w) }),
    expect: adminOnly(denied('InvalidParameter', { parameter: 'invitationId' })),
  },
  ...anyoneRows.flatMap((row) => credentials.map((credential): Row => ({ ...row, route: `${row.route}${credentialSuffix[credential]}`, credential }))),
  // The web client's pages one reaches from a link, signed out: the same page for everyone (it asks the methods above).
  ...['/invite/:token', '/forgot-password', '/reset-password', '/verify-email'].map(
    (path): Row => ({ route: `GET ${path}`, credential: 'session', request: () => get(path.replace(':token', 'inv_none')), expect: everyone(OK) }),
  ),
];
