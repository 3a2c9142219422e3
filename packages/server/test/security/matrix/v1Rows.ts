import { expect } from 'vitest';
import { send } from './http.js';
import { credentialSuffix, denied, OK, post, v1Gate, type Row } from './rows.js';
import { freshChannel, membersOfP as inP, type World } from './world.js';

/**
 * Every /v1 method × every actor. The target is private channel P (the owner moderates it; nonInstaller,
 * guest, userDisabled, teamDisabled and anotherDeveloper are plain members; nonMember and admin are not),
 * the owner's profile, or for member changes a fresh channel made like P.
 *
 * Reads of P: its members only; a team admin outside a private channel does not see it either. Member
 * changes in a private channel: its moderators only (plain members get PermissionDenied). Bots are
 * members of nothing. Another team's actor gets what a made-up id gets (see crossTeamLeakage.test.ts).
 */
const UnknownChannel = denied('UnknownChannel');
const NotModerator = denied('PermissionDenied');

const messageUnseen = denied('InvalidParameter', { parameter: 'messageUid' });
const notTheirs = denied('PermissionDenied', { parameter: 'messageUid' });

/** A fresh message of the owner's in P, sent with their token of X: each cell edits its own. */
async function ownersMessage(baseUrl: string, w: World): Promise<string> {
  const sent = await send(baseUrl, 'POST', '/v1/chat.sendMessage', { bearer: w.actors.owner.token, json: { to: w.channel, text: 'to be edited' } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body.uid;
}

const call = (method: string, params: Record<string, unknown> = {}) => post(`/v1/${method}`, params);

/** Members of P read and post; the others do not learn that P exists. */
function membersOfP(refusal: ReturnType<typeof denied>): Row['expect'] {
  return {
    ...v1Gate,
    otherTeam: refusal, nonMember: refusal, nonInstaller: OK, guest: OK, bot: refusal,
    anotherDeveloper: OK, admin: refusal, owner: OK,
  };
}

/** Nothing in the request depends on whom the caller may see: every valid token succeeds. */
const anyValidToken: Row['expect'] = {
  ...v1Gate,
  otherTeam: OK, nonMember: OK, nonInstaller: OK, guest: OK, bot: OK, anotherDeveloper: OK, admin: OK, owner: OK,
};

export const v1Rows: Row[] = [
  {
    route: 'v1 users.getInfo',
    credential: 'token',
    request: () => call('users.getInfo'),
    expect: anyValidToken,
    reveals: (user, { a, w }) => expect(user.teamId).toBe(a.kind === 'otherTeam' ? w.teamB : w.teamA),
  },
  {
    route: 'v1 channels.list',
    credential: 'token',
    request: () => call('channels.list'),
    expect: anyValidToken,
    reveals: (channels, { a, w }) => expect(channels.some((channel: { id: string }) => channel.id === w.channel)).toBe(inP.has(a.kind)),
  },
  {
    route: 'v1 roster.listContacts',
    credential: 'token',
    request: () => call('roster.listContacts'),
    expect: anyValidToken,
    // Teammates only (never oneself): another team's roster does not hold the owner.
    reveals: (contacts, { a, w }) =>
      expect(contacts.some((contact: { id: string }) => contact.id === w.owner.id)).toBe(a.kind !== 'otherTeam' && a.kind !== 'owner'),
  },
  {
    route: 'v1 channels.create',
    credential: 'token',
    request: (ids) => call('channels.create', { name: 'matrix-made', members: [ids.outsider] }),
    // A new channel is made in the caller's own team; a bot, member of nothing, cannot make one.
    expect: { ...anyValidToken, bot: denied('PermissionDenied') },
  },
  {
    route: 'v1 channels.addMembers',
    credential: 'token',
    prepare: async ({ t, w }) => ({ channel: await freshChannel(t, w) }),
    request: (ids) => call('channels.addMembers', { channelId: ids.channel, members: [ids.outsider] }),
    expect: {
      ...v1Gate,
      otherTeam: UnknownChannel, nonMember: UnknownChannel, nonInstaller: NotModerator, guest: NotModerator, bot: UnknownChannel,
      anotherDeveloper: NotModerator, admin: UnknownChannel, owner: OK,
    },
  },
  {
    route: 'v1 channels.removeMembers',
    credential: 'token',
    prepare: async ({ t, w }) => ({ channel: await freshChannel(t, w) }),
    request: (ids) => call('channels.removeMembers', { channelId: ids.channel, members: [ids.member] }),
    expect: {
      ...v1Gate,
      otherTeam: UnknownChannel, nonMember: UnknownChannel, nonInstaller: NotModerator, guest: NotModerator, bot: UnknownChannel,
      anotherDeveloper: NotModerator, admin: UnknownChannel, owner: OK,
    },
  },
  { route: 'v1 channels.getInfo', credential: 'token', request: (ids) => call('channels.getInfo', { channelId: ids.channel }), expect: membersOfP(UnknownChannel) },
  {
    route: 'v1 channels.listMembers',
    credential: 'token',
    request: (ids) => call('channels.listMembers', { channelId: ids.channel }),
    expect: membersOfP(UnknownChannel),
  },
  {
    route: 'v1 users.getPublicProfile',
    credential: 'token',
    request: (ids) => call('users.getPublicProfile', { userId: ids.user }),
    expect: { ...anyValidToken, otherTeam: denied('UnknownUser') },
  },
  {
    route: 'v1 chat.sendMessage',
    credential: 'token',
    request: (ids) => call('chat.sendMessage', { to: ids.channel, text: 'matrix' }),
    // A bot posts to a channel only on behalf of a member (onBehalfOf); without it, P is no recipient.
    expect: membersOfP(denied('UnknownRecipient', { parameter: 'to' })),
  },
  {
    route: 'v1 chat.updateMessage',
    credential: 'token',
    prepare: async ({ t, w }) => ({ message: await ownersMessage(t.url, w) }),
    request: (ids) => call('chat.updateMessage', { messageUid: ids.message, text: 'edited' }),
    // Only its sender, with a token of the app it was sent through. Who reads P sees it is not theirs; the
    // others (a bot is a member of nothing) learn nothing of it.
    expect: {
      ...v1Gate,
      otherTeam: messageUnseen, nonMember: messageUnseen, nonInstaller: notTheirs, guest: notTheirs, bot: messageUnseen,
      anotherDeveloper: notTheirs, admin: messageUnseen, owner: OK,
    },
    reveals: (edited) => expect(edited).toEqual({ uid: expect.any(String), editedAt: expect.any(Number) }),
  },
  {
    route: 'v1 chat.fetchMessages',
    credential: 'token',
    request: (ids) => call('chat.fetchMessages', { chat: ids.channel }),
    expect: membersOfP(denied('UnknownChat', { parameter: 'chat' })),
  },
  {
    route: 'v1 search.messages',
    credential: 'token',
    prepare: async ({ t, w }) => ({ message: await ownersMessage(t.url, w) }),
    request: () => call('search.messages', { query: '"to be edited"' }),
    // Anyone may search; what they find of P (private) is for its members only.
    expect: anyValidToken,
    reveals: (found, { a, w }) =>
      expect(found.matches.some((match: { chat: string }) => match.chat === w.channel)).toBe(inP.has(a.kind) && a.kind !== 'bot'),
  },
];

/** The member methods a team admin's session may call on any channel of the team (the admin console). */
const adminManagesMembers = new Set(['v1 channels.addMembers', 'v1 channels.removeMembers', 'v1 channels.listMembers']);

/**
 * The same methods called with each actor's session (`Authorization: Bearer as_s_…`): no app stands
 * between the person and the method, so an app disabled or uninstalled changes nothing, and a signed-out
 * session is NotSignedIn. The bot still presents its bot token. The owner's message in P was sent with
 * their token of X, so their session may not edit it (only that app's token may).
 */
function withSession(row: Row): Row {
  const { expect: outcomes } = row;
  return {
    ...row,
    route: `${row.route}${credentialSuffix.session}`,
    credential: 'session',
    expect: {
      ...outcomes,
      revoked: denied('NotSignedIn'),
      userDisabled: outcomes.nonInstaller,
      teamDisabled: outcomes.nonInstaller,
      ...(row.route === 'v1 chat.updateMessage' ? { owner: notTheirs } : {}),
      // A team admin's session manages the members of every channel of the team (the admin console), P too.
      ...(adminManagesMembers.has(row.route) ? { admin: OK } : {}),
    },
  };
}

export const v1SessionRows: Row[] = v1Rows.map(withSession);
