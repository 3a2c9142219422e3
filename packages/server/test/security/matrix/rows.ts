import { errorRegistry, type ErrorCode } from '@aviary/protocol';
import type { TestServer } from '../../helpers/server.js';
import type { MatrixRequest } from './http.js';
import type { Actor, ActorKind, Targets, World } from './world.js';

/**
 * Which credential an actor presents as `Authorization: Bearer`: its app token (a user token; the bot's
 * token for the bot), its session (the bot still presents its bot token), or the secret of the app
 * concerned. Routes that need no credential use `session`.
 */
export const credentials = ['token', 'session', 'appSecret'] as const;
export type Credential = (typeof credentials)[number];

/** How a method's row names its credential: `v1 chat.sendMessage`, `… with a session`, `… with the app's secret`. */
export const credentialSuffix: Record<Credential, string> = { token: '', session: ' with a session', appSecret: ' with the app’s secret' };

/** What a cell must answer: a success status, or an error's status, code and (where it says) more. */
export interface Outcome {
  status: number;
  error?: ErrorCode;
  parameter?: string;
  disabledBy?: 'user' | 'team';
}

/** What a cell's preparation made for it alone: ids that replace the shared ones, a fresh session or app secret. */
export type Prepared = Partial<Targets> & { session?: string; secret?: string };

/**
 * One route (or /v1 method with one credential) against every actor kind. `route` is the route as the
 * server registers it ("GET /api/session"), or `v1 <method>` with its credential's suffix (credentialSuffix);
 * the coverage test matches routes to the server and methods to the protocol.
 */
export interface Row {
  route: string;
  credential: Credential;
  /** Fresh objects for each cell of a row whose request changes them, so cells stay independent. */
  prepare?: (cell: { t: TestServer; w: World; a: Actor }) => Promise<Prepared>;
  request: (ids: Targets, w: World) => MatrixRequest;
  expect: Record<ActorKind, Outcome>;
  /** For a successful answer: asserts it shows the actor only what the actor may see. */
  reveals?: (body: any, seen: { a: Actor; w: World }) => void;
}

export const OK: Outcome = { status: 200 };
export const CREATED: Outcome = { status: 201 };
export const NO_CONTENT: Outcome = { status: 204 };

export function denied(error: ErrorCode, more: Omit<Outcome, 'status' | 'error'> = {}): Outcome {
  return { status: errorRegistry[error].status, error, ...more };
}

/** The refusals every /v1 method shares: no token, a revoked one, an app disabled by the person or the team. */
export const v1Gate = {
  none: denied('MissingParameter', { parameter: 'token' }),
  revoked: denied('InvalidToken'),
  userDisabled: denied('AppDisabled', { disabledBy: 'user' }),
  teamDisabled: denied('AppDisabled', { disabledBy: 'team' }),
} satisfies Partial<Record<ActorKind, Outcome>>;

/** The refusals every session route shares: no session, a bot token in its place, a signed-out session. */
export const sessionGate = {
  none: denied('NotSignedIn'),
  bot: denied('NotSignedIn'),
  revoked: denied('NotSignedIn'),
} satisfies Partial<Record<ActorKind, Outcome>>;

/** The same outcome for every actor: routes that need no credential. */
export function everyone(outcome: Outcome): Record<ActorKind, Outcome> {
  return {
    none: outcome, otherTeam: outcome, nonMember: outcome, nonInstaller: outcome, guest: outcome, bot: outcome,
    revoked: outcome, userDisabled: outcome, teamDisabled: outcome, anotherDeveloper: outcome, admin: outcome, owner: outcome,
  };
}

export const post = (path: string, json: unknown = {}): MatrixRequest => ({ method: 'POST', path, json });
export const get = (path: string, query?: Record<string, string>): MatrixRequest => ({ method: 'GET', path: query ? `${path}?${new URLSearchParams(query)}` : path });
