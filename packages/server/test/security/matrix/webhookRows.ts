import { expect } from 'vitest';
import { send } from './http.js';
import { denied, everyone, OK, post, v1Gate, type Row } from './rows.js';
import type { World } from './world.js';

/**
 * Incoming webhooks and scheduled messages (Aviary extensions): their six methods with a token and with a
 * session, and the webhook URL itself. Target: private channel P. A cell's fresh webhook or scheduled
 * message, made with the owner's token of X, travels in the `message` target.
 */
const call = (method: string, params: Record<string, unknown> = {}) => post(`/v1/${method}`, params);

/** Members of P may; the others (a bot is a member of nothing) do not learn that P exists. */
function membersOfP(refusal: ReturnType<typeof denied>): Row['expect'] {
  return { ...v1Gate, otherTeam: refusal, nonMember: refusal, nonInstaller: OK, guest: OK, bot: refusal, anotherDeveloper: OK, admin: refusal, owner: OK };
}

const anyValidToken: Row['expect'] = { ...v1Gate, otherTeam: OK, nonMember: OK, nonInstaller: OK, guest: OK, bot: OK, anotherDeveloper: OK, admin: OK, owner: OK };

async function ownersMade(baseUrl: string, w: World, method: string, json: Record<string, unknown>): Promise<any> {
  const made = await send(baseUrl, 'POST', `/v1/${method}`, { bearer: w.actors.owner.token, json });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body;
}

const inAnHour = () => Date.now() + 3_600_000;
const notScheduled = denied('InvalidParameter', { parameter: 'id' });
const unseenHook = denied('UnknownWebhook', { parameter: 'webhook' });

const tokenRows: Row[] = [
  {
    route: 'v1 chat.scheduleMessage',
    credential: 'token',
    request: (ids) => call('chat.scheduleMessage', { to: ids.channel, text: 'matrix later', sendAt: inAnHour() }),
    expect: membersOfP(denied('UnknownRecipient', { parameter: 'to' })),
  },
  {
    route: 'v1 chat.listScheduledMessages',
    credential: 'token',
    request: () => call('chat.listScheduledMessages'),
    expect: anyValidToken,
    // One's own only: the owner's (made with X's token) reach nobody else's list.
    reveals: (body, { a }) => expect(body.scheduledMessages.every((m: { text: string }) => a.kind === 'owner' || m.text !== 'matrix owner’s')).toBe(true),
  },
  {
    route: 'v1 chat.deleteScheduledMessage',
    credential: 'token',
    prepare: async ({ t, w }) => ({
      message: (await ownersMade(t.url, w, 'chat.scheduleMessage', { to: w.channel, text: 'matrix owner’s', sendAt: inAnHour() })).scheduledMessage.id,
    }),
    request: (ids) => call('chat.deleteScheduledMessage', { id: ids.message }),
    // Only its scheduler, through the same app; everyone else is told there is no such message of theirs.
    expect: { ...v1Gate, otherTeam: notScheduled, nonMember: notScheduled, nonInstaller: notScheduled, guest: notScheduled, bot: notScheduled, anotherDeveloper: notScheduled, admin: notScheduled, owner: OK },
  },
  {
    route: 'v1 webhooks.create',
    credential: 'token',
    request: (ids) => call('webhooks.create', { channel: ids.channel, name: 'Matrix hook' }),
    // A bot needs onBehalfOf, as for chat.sendMessage.
    expect: membersOfP(denied('UnknownRecipient', { parameter: 'channel' })),
    reveals: (body) => expect(body.path).toMatch(/^\/hooks\//),
  },
  {
    route: 'v1 webhooks.list',
    credential: 'token',
    request: (ids) => call('webhooks.list', { channel: ids.channel }),
    expect: membersOfP(denied('UnknownChannel', { parameter: 'channel' })),
    reveals: (body) => expect(JSON.stringify(body)).not.toMatch(/\/hooks\//),
  },
  {
    route: 'v1 webhooks.revoke',
    credential: 'token',
    prepare: async ({ t, w }) => ({ message: (await ownersMade(t.url, w, 'webhooks.create', { channel: w.channel, name: 'Matrix hook' })).webhook.id }),
    request: (ids) => call('webhooks.revoke', { webhook: ids.message }),
    // Its maker, a moderator of P (the owner is both) or a team admin; P's plain members see it but may not.
    expect: {
      ...v1Gate,
      otherTeam: unseenHook, nonMember: unseenHook, bot: unseenHook,
      nonInstaller: denied('PermissionDenied', { parameter: 'webhook' }), guest: denied('PermissionDenied', { parameter: 'webhook' }),
      anotherDeveloper: denied('PermissionDenied', { parameter: 'webhook' }), admin: OK, owner: OK,
    },
  },
];

/** With each actor's session: no app in between (disabled apps change nothing), a signed-out session is NotSignedIn. */
const sessionRows: Row[] = tokenRows.map((row) => ({
  ...row,
  route: `${row.route} with a session`,
  credential: 'session',
  expect: {
    ...row.expect,
    revoked: denied('NotSignedIn'),
    userDisabled: row.expect.nonInstaller,
    teamDisabled: row.expect.nonInstaller,
    // The owner scheduled it with X's token: their session may not cancel it.
    ...(row.route === 'v1 chat.deleteScheduledMessage' ? { owner: notScheduled } : {}),
  },
}));

/** The webhook's URL is its only credential: whatever else comes along changes nothing. */
const hookRow: Row = {
  route: 'POST /hooks/:id/:secret',
  credential: 'session',
  prepare: async ({ t, w }) => ({ message: (await ownersMade(t.url, w, 'webhooks.create', { channel: w.channel, name: 'Matrix hook' })).path }),
  request: (ids) => post(ids.message, { text: 'through the matrix' }),
  expect: everyone(OK),
};

export const webhookRows: Row[] = [...tokenRows, ...sessionRows, hookRow];
