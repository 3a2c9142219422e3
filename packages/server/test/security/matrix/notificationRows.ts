import { denied, OK, post, sessionGate, type Row } from './rows.js';

/**
 * Mentions, notification settings and Web Push (issue 23): all a person's own, so only a session reaches
 * them. A chat's level takes a chat the person reads (members of P); the team's @channel limit, its admins.
 */
const signedIn: Row['expect'] = {
  ...sessionGate,
  otherTeam: OK, nonMember: OK, nonInstaller: OK, guest: OK, userDisabled: OK, teamDisabled: OK, anotherDeveloper: OK, admin: OK, owner: OK,
};
const chatUnknown = denied('UnknownChat', { parameter: 'chat' });
const adminOnly = denied('PermissionDenied');

/** A P-256 public key and an auth secret, well formed (nothing is ever pushed to the endpoint: nobody messages it). */
const keys = { p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'), auth: Buffer.alloc(16, 9).toString('base64url') };

const row = (method: string, json: (ids: { channel: string }) => unknown, expect: Row['expect']): Row => ({
  route: `v1 ${method} with a session`,
  credential: 'session',
  request: (ids) => post(`/v1/${method}`, json(ids)),
  expect,
});

export const notificationRows: Row[] = [
  row('chat.listMentions', () => ({}), signedIn),
  row('notifications.getSettings', () => ({}), signedIn),
  row('notifications.setChatLevel', (ids) => ({ chat: ids.channel, level: 'all' }), { ...signedIn, otherTeam: chatUnknown, nonMember: chatUnknown, admin: chatUnknown }),
  row('notifications.setDoNotDisturb', () => ({ pauseHours: 0 }), signedIn),
  row('team.updateMentionSettings', () => ({ broadcastMentionLimit: 0 }), {
    ...sessionGate,
    otherTeam: adminOnly, nonMember: adminOnly, nonInstaller: adminOnly, guest: adminOnly, userDisabled: adminOnly, teamDisabled: adminOnly, anotherDeveloper: adminOnly, admin: OK, owner: adminOnly,
  }),
  row('push.getPublicKey', () => ({}), signedIn),
  row('push.subscribe', () => ({ endpoint: 'https://push.example.test/matrix', keys }), signedIn),
  row('push.unsubscribe', () => ({ endpoint: 'https://push.example.test/matrix' }), signedIn),
];
