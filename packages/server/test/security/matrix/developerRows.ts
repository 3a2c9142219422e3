import { expect } from 'vitest';
import { CREATED, denied, get, OK, post, sessionGate, type Outcome, type Row } from './rows.js';
import { freshApp } from './world.js';

/**
 * Every /api/developer route × every actor, each presenting its session. The app concerned is the owner's
 * (X, or Y for teamDisabled; a fresh app of the owner's for cells that change it). Its developer does
 * everything; a team admin manages it (reads it, renames, disables, deletes) but neither receives its
 * credentials, nor reads its event deliveries (they carry what people sent the app), nor changes where its
 * events and tokens go (issue #9 §3); anyone else
 * gets UnknownApp, as for an id that does not exist. Guests may not create apps (team default `members`).
 */
const unknownApp = denied('UnknownApp');
const notTheDeveloper = denied('PermissionDenied');

function developerAndAdmin(admin: Outcome): Row['expect'] {
  return {
    ...sessionGate,
    otherTeam: unknownApp, nonMember: unknownApp, nonInstaller: unknownApp, guest: unknownApp, userDisabled: unknownApp,
    teamDisabled: unknownApp, anotherDeveloper: unknownApp, admin, owner: OK,
  };
}

/** Reading and managing: the developer and the team's admins. */
const manage = developerAndAdmin(OK);
/** Credentials, and where the app's events and tokens go: the developer alone. */
const developerOnly = developerAndAdmin(notTheDeveloper);

const ownersFreshApp: Row['prepare'] = async ({ t, w, a }) => ({ app: await freshApp(t, w, a) });
const path = (appId: string, rest = '') => `/api/developer/apps/${appId}${rest}`;

export const developerRows: Row[] = [
  {
    route: 'POST /api/developer/apps',
    credential: 'session',
    request: () => post('/api/developer/apps', { name: 'Matrix app' }),
    expect: {
      ...sessionGate,
      otherTeam: CREATED, nonMember: CREATED, nonInstaller: CREATED, guest: denied('PermissionDenied'), userDisabled: CREATED,
      teamDisabled: CREATED, anotherDeveloper: CREATED, admin: CREATED, owner: CREATED,
    },
  },
  {
    route: 'GET /api/developer/apps',
    credential: 'session',
    request: () => get('/api/developer/apps'),
    expect: { ...sessionGate, otherTeam: OK, nonMember: OK, nonInstaller: OK, guest: OK, userDisabled: OK, teamDisabled: OK, anotherDeveloper: OK, admin: OK, owner: OK },
    // Each person's own apps, a team admin's too: an empty list is an answer.
    reveals: (body, { a }) => expect(body.apps.filter((app: { developerId: string }) => app.developerId !== a.user?.id)).toEqual([]),
  },
  {
    route: 'GET /api/developer/apps/:id',
    credential: 'session',
    request: (ids) => get(path(ids.app)),
    expect: manage,
    // The secret is the developer's alone.
    reveals: (body, { a }) => expect('secret' in body.app).toBe(a.kind === 'owner'),
  },
  {
    route: 'PATCH /api/developer/apps/:id',
    credential: 'session',
    prepare: ownersFreshApp,
    request: (ids) => ({ method: 'PATCH', path: path(ids.app), json: { listenerUrl: 'https://listener.example.test/events' } }),
    expect: developerOnly,
  },
  {
    route: 'PUT /api/developer/apps/:id/integrations',
    credential: 'session',
    prepare: ownersFreshApp,
    request: (ids) => ({ method: 'PUT', path: path(ids.app, '/integrations'), json: {} }),
    expect: developerOnly,
  },
  { route: 'DELETE /api/developer/apps/:id', credential: 'session', prepare: ownersFreshApp, request: (ids) => ({ method: 'DELETE', path: path(ids.app) }), expect: manage },
  { route: 'POST /api/developer/apps/:id/secret', credential: 'session', prepare: ownersFreshApp, request: (ids) => post(path(ids.app, '/secret')), expect: developerOnly },
  { route: 'POST /api/developer/apps/:id/bot', credential: 'session', prepare: ownersFreshApp, request: (ids) => post(path(ids.app, '/bot')), expect: developerOnly },
  {
    route: 'POST /api/developer/apps/:id/bot/token',
    credential: 'session',
    prepare: async ({ t, w, a }) => ({ app: await freshApp(t, w, a, { bot: true }) }),
    request: (ids) => post(path(ids.app, '/bot/token')),
    expect: developerOnly,
  },
  { route: 'GET /api/developer/apps/:id/events', credential: 'session', request: (ids) => get(path(ids.app, '/events')), expect: developerOnly },
  {
    route: 'GET /api/developer/apps/:id/events/:eventId/attempts',
    credential: 'session',
    // X's event: for the owner and the admin the app is X; for teamDisabled (app Y) the app refuses first.
    request: (ids) => get(path(ids.app, `/events/${ids.event}/attempts`)),
    expect: developerOnly,
  },
  {
    route: 'POST /api/developer/apps/:id/events/:eventId/replay',
    credential: 'session',
    prepare: async ({ t, w, a }) => {
      const app = await freshApp(t, w, a, { event: true });
      const event = await t.testStore.store.db.selectFrom('events').select('id').where('app_id', '=', app).executeTakeFirstOrThrow();
      return { app, event: event.id };
    },
    request: (ids) => post(path(ids.app, `/events/${ids.event}/replay`)),
    expect: developerOnly,
  },
  { route: 'POST /api/developer/apps/:id/events/replay-failed', credential: 'session', prepare: ownersFreshApp, request: (ids) => post(path(ids.app, '/events/replay-failed')), expect: developerOnly },
  // A fresh app has no listener URL: the owner's test event is answered, saying so (reason no_listener).
  { route: 'POST /api/developer/apps/:id/test-events', credential: 'session', prepare: ownersFreshApp, request: (ids) => post(path(ids.app, '/test-events'), { name: 'app.uninstall' }), expect: developerOnly },
  { route: 'POST /api/developer/apps/:id/delivery/pause', credential: 'session', prepare: ownersFreshApp, request: (ids) => post(path(ids.app, '/delivery/pause')), expect: developerOnly },
  { route: 'POST /api/developer/apps/:id/delivery/resume', credential: 'session', prepare: ownersFreshApp, request: (ids) => post(path(ids.app, '/delivery/resume')), expect: developerOnly },
];
