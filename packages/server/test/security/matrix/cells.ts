import type { TestServer } from '../../helpers/server.js';
import { send, type Answer } from './http.js';
import type { Outcome, Row } from './rows.js';
import { targetsOf, type Actor, type Targets, type World } from './world.js';

/**
 * Runs one cell: prepares its fresh objects, then sends the row's request as the actor, with the actor's
 * credential the row names (an app token, a session, or the app's secret). `override` swaps the ids named (the cross-team test's made-up ones).
 */
export async function runCell(t: TestServer, w: World, row: Pick<Row, 'credential' | 'prepare' | 'request'>, a: Actor, override?: Targets): Promise<Answer> {
  const { session, secret, ...prepared } = override || !row.prepare ? {} : await row.prepare({ t, w, a });
  const ids = override ?? { ...targetsOf(w, a), ...prepared };
  const request = row.request(ids, w);
  const bearer = row.credential === 'token' ? a.token : row.credential === 'appSecret' ? (secret ?? a.secret) : (session ?? a.session);
  return send(t.url, request.method, request.path, { json: request.json, bearer, upload: request.upload, raw: request.raw });
}

/** The answer in the terms of the expected outcome: its status, and what the expectation names of the error. */
export function outcomeOf(answer: Answer, expected: Outcome): Outcome {
  const body = typeof answer.body === 'object' && answer.body !== null ? answer.body : {};
  const actual: Outcome = { status: answer.status };
  if (body.error !== undefined || expected.error !== undefined) actual.error = body.error;
  if (expected.parameter !== undefined) actual.parameter = body.parameter;
  if (expected.disabledBy !== undefined) actual.disabledBy = body.disabledBy;
  return actual;
}

/** "200", "403 AppDisabled (user)", "400 InvalidParameter appId": a cell's expectation, for its test name. */
export function describeOutcome(outcome: Outcome): string {
  return [outcome.status, outcome.error, outcome.parameter, outcome.disabledBy && `(${outcome.disabledBy})`].filter(Boolean).join(' ');
}
