import { expect } from 'vitest';
import { send } from './http.js';
import { denied, OK, post, sessionGate, v1Gate, type Row } from './rows.js';
import type { World } from './world.js';

/**
 * Deleting messages, their history of edits, and reactions (issue 23), with a token and with a session.
 * The target is P's bot message (reactions), or a fresh message of the owner's in P sent with their
 * token of X (deletes: each cell deletes its own).
 */
const messageUnseen = denied('InvalidParameter', { parameter: 'messageUid' });
const notTheirs = denied('PermissionDenied', { parameter: 'messageUid' });

async function ownersMessage(baseUrl: string, w: World): Promise<string> {
  const sent = await send(baseUrl, 'POST', '/v1/chat.sendMessage', { bearer: w.actors.owner.token, json: { to: w.channel, text: 'to be deleted' } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body.uid;
}

/** Who reads P may react to its messages; the bot to its own message there; the others learn nothing of it. */
const readersOfP: Row['expect'] = {
  ...v1Gate,
  otherTeam: messageUnseen, nonMember: messageUnseen, nonInstaller: OK, guest: OK, bot: OK, anotherDeveloper: OK, admin: messageUnseen, owner: OK,
};

/** With a session no app stands between the person and the method: an app disabled changes nothing. */
const withSession = (outcomes: Row['expect']): Row['expect'] => ({
  ...outcomes,
  revoked: denied('NotSignedIn'),
  userDisabled: outcomes.nonInstaller,
  teamDisabled: outcomes.nonInstaller,
});

const deletes: Row['expect'] = {
  ...v1Gate,
  otherTeam: messageUnseen, nonMember: messageUnseen, nonInstaller: notTheirs, guest: notTheirs, bot: messageUnseen,
  anotherDeveloper: notTheirs, admin: messageUnseen, owner: OK,
};

const reactionRows: Row[] = (['reactions.add', 'reactions.remove', 'reactions.list'] as const).flatMap((method) => {
  const request = (ids: { message: string }) => post(`/v1/${method}`, method === 'reactions.list' ? { messageUid: ids.message } : { messageUid: ids.message, emoji: '👍' });
  return [
    { route: `v1 ${method}`, credential: 'token', request, expect: readersOfP },
    { route: `v1 ${method} with a session`, credential: 'session', request, expect: withSession(readersOfP) },
  ] satisfies Row[];
});

export const messageChangeRows: Row[] = [
  {
    route: 'v1 chat.deleteMessage',
    credential: 'token',
    prepare: async ({ t, w }) => ({ message: await ownersMessage(t.url, w) }),
    request: (ids) => post('/v1/chat.deleteMessage', { messageUid: ids.message }),
    // Only a token of the app it was sent through; the readers of P see it is not theirs.
    expect: deletes,
    reveals: (deleted) => expect(deleted).toEqual({ uid: expect.any(String), deletedAt: expect.any(Number) }),
  },
  {
    route: 'v1 chat.deleteMessage with a session',
    credential: 'session',
    prepare: async ({ t, w }) => ({ message: await ownersMessage(t.url, w) }),
    request: (ids) => post('/v1/chat.deleteMessage', { messageUid: ids.message }),
    // A person deletes their own message however it was sent; the team admin is not in P, so does not see it.
    expect: withSession(deletes),
  },
  {
    route: 'v1 chat.listMessageEdits with a session',
    credential: 'session',
    request: (ids) => post('/v1/chat.listMessageEdits', { messageUid: ids.message }),
    // Team admins only, and only of a message they can see (the admin is not in P).
    expect: {
      ...sessionGate,
      otherTeam: denied('PermissionDenied'), nonMember: denied('PermissionDenied'), nonInstaller: denied('PermissionDenied'), guest: denied('PermissionDenied'),
      userDisabled: denied('PermissionDenied'), teamDisabled: denied('PermissionDenied'), anotherDeveloper: denied('PermissionDenied'), admin: messageUnseen,
      owner: denied('PermissionDenied'),
    },
  },
  ...reactionRows,
];
