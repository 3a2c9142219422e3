import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WEB_CLIENT_DIST } from '../../../src/api/webClient.js';
import { denied, everyone, get, NO_CONTENT, OK, post, type Row } from './rows.js';
import { freshSession, password } from './world.js';

/** A file of the web client's build (npm test builds it first). */
const builtAsset = readdirSync(join(WEB_CLIENT_DIST, 'assets')).find((name) => name.endsWith('.js'));

/**
 * The routes that need no credential answer every actor alike (each still presents its session, which
 * must change nothing). `/v1/:method` with GET or POST is the method API: one row per method in v1Rows.
 */
export const publicRows: Row[] = [
  { route: 'GET /v1/openapi.json', credential: 'session', request: () => get('/v1/openapi.json'), expect: everyone(OK) },
  { route: 'GET /openapi.json', credential: 'session', request: () => get('/openapi.json'), expect: everyone(OK) },
  { route: 'GET /widget.js', credential: 'session', request: () => get('/widget.js'), expect: everyone(OK) },
  { route: 'GET /flock.js', credential: 'session', request: () => get('/flock.js'), expect: everyone(OK) },
  // The stream is a WebSocket (test/stream/upgrade.test.ts checks who may open it); a plain GET is told so.
  { route: 'GET /api/stream', credential: 'session', request: () => get('/api/stream'), expect: everyone(denied('InvalidRequestData')) },
  // The web client's page and files: the same for everyone, signed in or not (the page asks who is).
  ...['/', '/signin', '/apps', '/c/:chat', '/dev', '/dev/:app'].map(
    (path): Row => ({
      route: `GET ${path}`,
      credential: 'session',
      request: () => get(path.replace(':chat', 'g%3Aabcdefghijklmnop').replace(':app', 'a%3Aabcdefghijklmnop')),
      expect: everyone(OK),
    }),
  ),
  { route: 'GET /assets/:name', credential: 'session', request: () => get(`/assets/${builtAsset}`), expect: everyone(OK) },
  // What operators and load balancers call (docs/operations.md); /metrics takes a token only when one is configured.
  ...['/healthz', '/readyz', '/metrics'].map((path): Row => ({ route: `GET ${path}`, credential: 'session', request: () => get(path), expect: everyone(OK) })),
  { route: 'OPTIONS /v1/:method', credential: 'session', request: () => ({ method: 'OPTIONS', path: '/v1/users.getInfo' }), expect: everyone(NO_CONTENT) },
  ...(['PUT', 'PATCH', 'DELETE'] as const).map(
    (method): Row => ({
      route: `${method} /v1/:method`,
      credential: 'session',
      request: () => ({ method, path: '/v1/users.getInfo' }),
      expect: everyone(denied('HTTPMethodNotAllowed')),
    }),
  ),
  {
    route: 'POST /api/session',
    credential: 'session',
    // Signing in takes an email and a password; whatever credential comes along is beside the point.
    request: (_ids, w) => post('/api/session', { email: w.owner.email, password }),
    expect: everyone(OK),
  },
  {
    route: 'GET /api/session',
    credential: 'session',
    // Who is signed in: anyone may ask; without a live session (none, a bot's token, a revoked one) the answer is {user: null}.
    request: () => get('/api/session'),
    expect: everyone(OK),
  },
  {
    route: 'DELETE /api/session',
    credential: 'session',
    // Signing out ends the session presented (a fresh one of the actor's, so the actor's own lives on).
    prepare: async ({ t, a }) => ({ session: await freshSession(t, a) }),
    request: () => ({ method: 'DELETE', path: '/api/session' }),
    expect: everyone(OK),
  },
];
