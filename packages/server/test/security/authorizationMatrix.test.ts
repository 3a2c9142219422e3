import { methodsByName } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { attachmentRows } from './matrix/attachmentRows.js';
import { describeOutcome, outcomeOf, runCell } from './matrix/cells.js';
import { clientRows } from './matrix/clientRows.js';
import { developerRows } from './matrix/developerRows.js';
import { invitationRows } from './matrix/invitationRows.js';
import { publicRows } from './matrix/publicRows.js';
import { registeredRoutes } from './matrix/routes.js';
import type { Row } from './matrix/rows.js';
import { personOnlyTokenRows, v1Rows, v1SessionRows } from './matrix/v1Rows.js';
import { actorKinds, sharedWorld, roomyRateLimits } from './matrix/world.js';

/**
 * Issue #9's authorization matrix: every /v1 method (with a token, and with a session where a person may
 * call it) and every route the server registers × every actor kind, each cell a real HTTP call with the
 * outcome it must have (the tables are in ./matrix/*Rows.ts).
 *
 * The actors, all in team A unless said (P is a private channel the owner moderates; X an app of the owner's):
 * | none             | no credential at all                                                              |
 * | otherTeam        | Eve of team B, with her own team's app token and her session                      |
 * | nonMember        | Carol: installed X, not in P                                                      |
 * | nonInstaller     | Frank: member of P, never installed X (his token is for another app)              |
 * | guest            | Gina, role guest: installed X, member of P                                        |
 * | bot              | X's bot token (on /api it stands in for a session)                                |
 * | revoked          | Rita: her token of X revoked by uninstalling, her session signed out              |
 * | userDisabled     | Dan: member of P, installed X and disabled it                                     |
 * | teamDisabled     | Tess: member of P, installed Y, which a team admin disabled; her app concerned is Y |
 * | anotherDeveloper | Dave: member of P, installed X, develops another app                              |
 * | admin            | Adam, team admin: installed X, not in P, develops nothing                         |
 * | owner            | Alice: developer of X and Y, moderator of P: the positive control                 |
 */
const rows: Row[] = [...v1Rows, ...personOnlyTokenRows, ...v1SessionRows, ...clientRows, ...developerRows, ...publicRows, ...attachmentRows, ...invitationRows];


forEachDialect(
  'authorization matrix',
  (t) => {
    const w = sharedWorld(t);

    // GET and POST /v1/:method are the method API, whose rows are its methods.
    const covered = new Set(['GET /v1/:method', 'POST /v1/:method', ...rows.filter((row) => !row.route.startsWith('v1 ')).map((row) => row.route)]);

    it('has a row for every /v1 method', () => {
      const tokenRows = rows.filter((row) => row.route.startsWith('v1 ') && row.credential === 'token');
      expect(tokenRows.map((row) => row.route.replace(/^v1 /, '')).sort()).toEqual([...methodsByName.keys()].sort());
    });

    it('has a row with a session for every /v1 method a person’s session may call', () => {
      const callable = [...methodsByName.values()].filter((method) => method.callers.includes('session')).map((method) => `v1 ${method.name} with a session`);
      expect(rows.filter((row) => row.route.endsWith(' with a session')).map((row) => row.route).sort()).toEqual(callable.sort());
    });

    it('has a row for every route the server registers', () => {
      const registered = registeredRoutes(t().server.http.app);
      expect(registered.filter((route) => !covered.has(route))).toEqual([]);
    });

    it('has no row for a route the server does not register', () => {
      const registered = registeredRoutes(t().server.http.app);
      expect([...covered].filter((route) => !registered.includes(route))).toEqual([]);
    });

    for (const row of rows) {
      describe(row.route, () => {
        for (const kind of actorKinds) {
          const expected = row.expect[kind];
          it(`${kind} → ${describeOutcome(expected)}`, async () => {
            const answer = await runCell(t(), w(), row, w().actors[kind]);
            expect(outcomeOf(answer, expected), JSON.stringify(answer.body)).toEqual(expected);
            // Every refusal has the API's error shape: a code and a description a person can act on.
            if (answer.status >= 400) expect(answer.body).toMatchObject({ error: expect.any(String), description: expect.any(String) });
            else row.reveals?.(answer.body, { a: w().actors[kind], w: w() });
          });
        }
      });
    }
  },
  { rateLimits: roomyRateLimits },
);
