import { methodsByName } from '@aviary/protocol';
import { expect } from 'vitest';
import { credentialSuffix, denied, everyone, OK, post, sessionGate, type Outcome, type Prepared, type Row } from './rows.js';
import { freshApp, type Actor } from './world.js';
import type { TestServer } from '../../helpers/server.js';

/**
 * The developer methods (apps.* on one app, deliveries.*) × every actor, each with its session and, for
 * those an app may call on itself, with the app's secret. The app concerned is the owner's (X, or Y for
 * teamDisabled; a fresh app of the owner's for cells that change it). Its developer does everything; a
 * team admin reads the app, renames and deletes it, but neither receives its credentials, nor reads its
 * event deliveries (they carry what people sent the app), nor changes where its events and tokens go
 * (issue #9 §3). Anyone else gets UnknownApp, as for an id that does not exist. Guests may not create
 * apps (team default `members`). With the app's secret, whoever holds it is the app itself: everything
 * but what only a person does (creating, listing one's apps, deleting); another app's secret (otherTeam
 * holds team B's) is InvalidToken, as a wrong secret. An app token is no credential of these methods, and
 * the rows of the credentials a method does not take are made from the protocol (credentialRows.ts).
 */
const unknownApp = denied('UnknownApp');
const notTheDeveloper = denied('PermissionDenied');
const noSuchWebhook = denied('UnknownWebhook', { parameter: 'webhook' });

/** With a session: the developer and the team's admins (with `admin`), nobody else. */
function developerAndAdmin(admin: Outcome): Row['expect'] {
  return {
    ...sessionGate,
    otherTeam: unknownApp, nonMember: unknownApp, nonInstaller: unknownApp, guest: unknownApp, userDisabled: unknownApp,
    teamDisabled: unknownApp, anotherDeveloper: unknownApp, admin, owner: OK,
  };
}

/** Reading and managing: the developer and the team's admins. */
const manage = developerAndAdmin(OK);
/** Credentials, deliveries and where the app's events and tokens go: the developer alone. */
const developerOnly = developerAndAdmin(notTheDeveloper);

/** With the app's secret: whoever holds the app concerned's secret is the app itself; no secret, or another app's, is refused. */
function withTheSecret(outcome: Outcome): Row['expect'] {
  return { ...everyone(outcome), none: denied('NotSignedIn'), otherTeam: denied('InvalidToken') };
}

/** A fresh app of the owner's; an actor holding the app concerned's secret presents the fresh app's own instead. */
async function ownersFresh(t: TestServer, a: Actor, make: () => Promise<string>): Promise<Prepared> {
  const app = await make();
  if (a.secret === undefined || a.secret !== a.app.secret) return { app };
  const { secret } = await t.testStore.store.db.selectFrom('apps').select('secret').where('id', '=', app).executeTakeFirstOrThrow();
  return { app, secret };
}

const ownersFreshApp: Row['prepare'] = ({ t, w, a }) => ownersFresh(t, a, () => freshApp(t, w, a));

const call = (method: string, params: Record<string, unknown> = {}) => post(`/v1/${method}`, params);

/** One developer method: its request, its preparation, and what each actor gets with a session. */
interface DeveloperRow {
  method: string;
  request: Row['request'];
  prepare?: Row['prepare'];
  expect: Row['expect'];
  reveals?: Row['reveals'];
  /** With the app's secret (for a method that takes it): what the app itself gets, when not OK. */
  itself?: Row['expect'];
  /** With the app's secret, for a successful answer. */
  revealsToItself?: Row['reveals'];
}

const developerMethods: DeveloperRow[] = [
  {
    method: 'apps.create',
    request: () => call('apps.create', { name: 'Matrix app' }),
    expect: {
      ...sessionGate,
      otherTeam: OK, nonMember: OK, nonInstaller: OK, guest: denied('PermissionDenied'), userDisabled: OK,
      teamDisabled: OK, anotherDeveloper: OK, admin: OK, owner: OK,
    },
  },
  {
    method: 'apps.listDeveloped',
    request: () => call('apps.listDeveloped'),
    expect: { ...sessionGate, otherTeam: OK, nonMember: OK, nonInstaller: OK, guest: OK, userDisabled: OK, teamDisabled: OK, anotherDeveloper: OK, admin: OK, owner: OK },
    // Each person's own apps, a team admin's too: an empty list is an answer.
    reveals: (body, { a }) => expect(body.apps.filter((app: { developerId: string }) => app.developerId !== a.user?.id)).toEqual([]),
  },
  {
    method: 'apps.getInfo',
    request: (ids) => call('apps.getInfo', { appId: ids.app }),
    expect: manage,
    // The secret is the developer's and the app's alone.
    reveals: (body, { a }) => expect('secret' in body.app).toBe(a.kind === 'owner'),
    revealsToItself: (body) => expect(body.app.secret).toMatch(/^as_/),
  },
  {
    method: 'apps.update',
    prepare: ownersFreshApp,
    request: (ids) => call('apps.update', { appId: ids.app, listenerUrl: 'https://listener.example.test/events' }),
    expect: developerOnly,
  },
  { method: 'apps.setIntegrations', prepare: ownersFreshApp, request: (ids) => call('apps.setIntegrations', { appId: ids.app, integrations: {} }), expect: developerOnly },
  { method: 'apps.delete', prepare: ownersFreshApp, request: (ids) => call('apps.delete', { appId: ids.app }), expect: manage },
  { method: 'apps.rotateSecret', prepare: ownersFreshApp, request: (ids) => call('apps.rotateSecret', { appId: ids.app }), expect: developerOnly },
  { method: 'apps.enableBot', prepare: ownersFreshApp, request: (ids) => call('apps.enableBot', { appId: ids.app }), expect: developerOnly },
  {
    method: 'apps.regenerateBotToken',
    prepare: ({ t, w, a }) => ownersFresh(t, a, () => freshApp(t, w, a, { bot: true })),
    request: (ids) => call('apps.regenerateBotToken', { appId: ids.app }),
    expect: developerOnly,
  },
  // The webhooks made through the app: its developer and the team's admins see and revoke them (none is made here).
  { method: 'apps.listWebhooks', request: (ids) => call('apps.listWebhooks', { appId: ids.app }), expect: manage, reveals: (body) => expect(body.webhooks).toEqual([]) },
  {
    method: 'apps.revokeWebhook',
    request: (ids) => call('apps.revokeWebhook', { appId: ids.app, webhook: 'wh_aaaaaaaaaaaaaaaa' }),
    expect: { ...developerAndAdmin(noSuchWebhook), owner: noSuchWebhook },
    itself: withTheSecret(noSuchWebhook),
  },
  { method: 'deliveries.list', request: (ids) => call('deliveries.list', { appId: ids.app }), expect: developerOnly },
  // X's event: for the owner and the admin the app is X; for teamDisabled (app Y) the app refuses first with a
  // session, and with Y's own secret Y has no such event.
  {
    method: 'deliveries.listAttempts',
    request: (ids) => call('deliveries.listAttempts', { appId: ids.app, eventId: ids.event }),
    expect: developerOnly,
    itself: { ...withTheSecret(OK), teamDisabled: denied('InvalidParameter', { parameter: 'eventId' }) },
  },
  {
    method: 'deliveries.replay',
    prepare: async ({ t, w, a }) => {
      const prepared = await ownersFresh(t, a, () => freshApp(t, w, a, { event: true }));
      const event = await t.testStore.store.db.selectFrom('events').select('id').where('app_id', '=', prepared.app!).executeTakeFirstOrThrow();
      return { ...prepared, event: event.id };
    },
    request: (ids) => call('deliveries.replay', { appId: ids.app, eventId: ids.event }),
    expect: developerOnly,
  },
  { method: 'deliveries.replayFailed', prepare: ownersFreshApp, request: (ids) => call('deliveries.replayFailed', { appId: ids.app }), expect: developerOnly },
  // A fresh app's listener answers {}: the owner's test event is answered.
  { method: 'deliveries.sendTestEvent', prepare: ownersFreshApp, request: (ids) => call('deliveries.sendTestEvent', { appId: ids.app, name: 'app.uninstall' }), expect: developerOnly },
  { method: 'deliveries.pause', prepare: ownersFreshApp, request: (ids) => call('deliveries.pause', { appId: ids.app }), expect: developerOnly },
  { method: 'deliveries.resume', prepare: ownersFreshApp, request: (ids) => call('deliveries.resume', { appId: ids.app }), expect: developerOnly },
];

/** Every method with a session; those an app may call on itself with its secret too (the other credentials: credentialRows.ts). */
export const developerRows: Row[] = developerMethods.flatMap((row): Row[] => [
  { route: `v1 ${row.method} with a session`, credential: 'session', request: row.request, prepare: row.prepare, expect: row.expect, reveals: row.reveals },
  ...(methodsByName.get(row.method)?.callers.includes('appSecret')
    ? [{ route: `v1 ${row.method}${credentialSuffix.appSecret}`, credential: 'appSecret' as const, request: row.request, prepare: row.prepare, expect: row.itself ?? withTheSecret(OK), reveals: row.revealsToItself }]
    : []),
]);
