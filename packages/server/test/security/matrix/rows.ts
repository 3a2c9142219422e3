import { errorRegistry, type ErrorCode } from '@aviary/protocol';
import type { TestServer } from '../../helpers/server.js';
import type { MatrixRequest } from './http.js';
import type { Actor, ActorKind, Targets, World } from './world.js';

/** What a cell must answer: a success status, or an error's status, code and (where it says) more. */
export interface Outcome {
  status: number;
  error?: ErrorCode;
  parameter?: string;
  disabledBy?: 'user' | 'team';
}

/** What a cell's preparation made for it alone: ids that replace the shared ones, a fresh session or token. */
export type Prepared = Partial<Targets> & { session?: string; token?: string };

/**
 * One route (or /v1 method) against every actor kind. `route` is the route as the server registers it
 * ("GET /api/client/roster") or `v1 <method>`; the coverage test matches it to the server.
 */
export interface Row {
  route: string;
  /** Which credential an actor presents: its method token (/v1) or its session (/api). */
  credential: 'token' | 'session';
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

/**
 * The refusals every /v1 method shares: no token, a revoked one, an app disabled by the person or the
 * team; an app's secret is no token (the methods that take a secret have rows of their own).
 */
export const v1Gate = {
  none: denied('MissingParameter', { parameter: 'token' }),
  revoked: denied('InvalidToken'),
  appSecret: denied('InvalidToken'),
  otherAppSecret: denied('InvalidToken'),
  userDisabled: denied('AppDisabled', { disabledBy: 'user' }),
  teamDisabled: denied('AppDisabled', { disabledBy: 'team' }),
} satisfies Partial<Record<ActorKind, Outcome>>;

/** The refusals every session route shares: no session, a bot token or an app's secret in its place, a signed-out session. */
export const sessionGate = {
  none: denied('NotSignedIn'),
  bot: denied('NotSignedIn'),
  revoked: denied('NotSignedIn'),
  appSecret: denied('NotSignedIn'),
  otherAppSecret: denied('NotSignedIn'),
} satisfies Partial<Record<ActorKind, Outcome>>;

/** The same outcome for every actor: routes that need no credential. */
export function everyone(outcome: Outcome): Record<ActorKind, Outcome> {
  return {
    none: outcome, otherTeam: outcome, nonMember: outcome, nonInstaller: outcome, guest: outcome, bot: outcome,
    revoked: outcome, userDisabled: outcome, teamDisabled: outcome, anotherDeveloper: outcome, admin: outcome, owner: outcome,
    appSecret: outcome, otherAppSecret: outcome,
  };
}

export const post = (path: string, json: unknown = {}): MatrixRequest => ({ method: 'POST', path, json });
export const get = (path: string, query?: Record<string, string>): MatrixRequest => ({ method: 'GET', path: query ? `${path}?${new URLSearchParams(query)}` : path });
