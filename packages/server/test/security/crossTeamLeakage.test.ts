import { expect, it } from 'vitest';
import { newAppId, newChannelId, newMessageUid, newUserId } from '../../src/store/ids.js';
import { newEventId } from '../../src/events/ids.js';
import { forEachDialect } from '../helpers/server.js';
import { runCell } from './matrix/cells.js';
import { sessionOnlyRows } from './matrix/sessionRows.js';
import { developerRows } from './matrix/developerRows.js';
import type { Answer } from './matrix/http.js';
import { post, type Row } from './matrix/rows.js';
import { v1Rows, v1SessionRows } from './matrix/v1Rows.js';
import { sharedWorld, freshOtherTeamActor, roomyRateLimits, targetsOf, type Targets } from './matrix/world.js';

/**
 * An actor of another team never learns whether an id of team A exists: every refusal the matrix expects
 * for `otherTeam` must be, byte for byte once the ids are blanked out, the answer to the same request
 * naming made-up ids of the same shapes. Besides the matrix rows, direct chats with a team A person.
 */
type Probe = Pick<Row, 'route' | 'credential' | 'prepare' | 'request'>;

const directChatProbes: Probe[] = [
  { route: 'v1 chat.sendMessage to a person', credential: 'token', request: (ids) => post('/v1/chat.sendMessage', { to: ids.user, text: 'hi' }) },
  { route: 'v1 chat.fetchMessages of a person', credential: 'token', request: (ids) => post('/v1/chat.fetchMessages', { chat: ids.user }) },
  { route: 'v1 chat.fetchMessages of a person with a session', credential: 'session', request: (ids) => post('/v1/chat.fetchMessages', { chat: ids.user }) },
  { route: 'v1 chat.sendFromComposer to a person with a session', credential: 'session', request: (ids) => post('/v1/chat.sendFromComposer', { to: ids.user, text: 'hi' }) },
];

const refusedRows = [...v1Rows, ...v1SessionRows, ...sessionOnlyRows, ...developerRows].filter((row) => row.expect.otherTeam.error !== undefined);

function madeUpTargets(): Targets {
  return {
    app: newAppId(),
    channel: newChannelId(),
    message: newMessageUid(),
    user: newUserId(),
    event: newEventId(Date.now()),
    member: newUserId(),
    outsider: newUserId(),
  };
}

/** The answer with every id it may echo replaced by `<id>`: what is left must not depend on the ids. */
function blanked(answer: Answer, ...targets: Targets[]): string {
  let text = JSON.stringify({ status: answer.status, body: answer.body });
  for (const id of targets.flatMap((ids) => Object.values(ids))) text = text.replaceAll(id, '<id>');
  return text;
}

forEachDialect(
  'no cross-team leakage',
  (t) => {
    const w = sharedWorld(t);

    for (const probe of [...refusedRows, ...directChatProbes]) {
      it(`${probe.route}: team A's ids answer like made-up ones`, async () => {
        const eve = await freshOtherTeamActor(t(), w());
        const real = probe.prepare ? { ...targetsOf(w(), eve), ...(await probe.prepare({ t: t(), w: w(), a: eve })) } : targetsOf(w(), eve);
        const { session: _fresh, token: _token, ...realIds } = real as Targets & { session?: string; token?: string };
        const madeUp = madeUpTargets();
        const answers = [await runCell(t(), w(), probe, eve, realIds), await runCell(t(), w(), probe, eve, madeUp)];
        expect(answers[0].status).toBeGreaterThanOrEqual(400);
        expect(blanked(answers[0], realIds, madeUp)).toBe(blanked(answers[1], realIds, madeUp));
      });
    }
  },
  { rateLimits: roomyRateLimits },
);
