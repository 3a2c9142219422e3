import { methodsByName } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { attachmentRows } from './matrix/attachmentRows.js';
import { adminRows } from './matrix/adminRows.js';
import { auditRows } from './matrix/auditRows.js';
import { describeOutcome, outcomeOf, runCell } from './matrix/cells.js';
import { refusedCredentialRows } from './matrix/credentialRows.js';
import { messageChangeRows } from './matrix/messageChangeRows.js';
import { developerRows } from './matrix/developerRows.js';
import { invitationRows } from './matrix/invitationRows.js';
import { pictureRows } from './matrix/pictureRows.js';
import { pinRows } from './matrix/pinRows.js';
import { threadRows } from './matrix/threadRows.js';
import { fileRows } from './matrix/fileRows.js';
import { notificationRows } from './matrix/notificationRows.js';
import { publicRows } from './matrix/publicRows.js';
import { registeredRoutes } from './matrix/routes.js';
import { credentials, credentialSuffix, type Row } from './matrix/rows.js';
import { sessionOnlyRows } from './matrix/sessionRows.js';
import { signInRows } from './matrix/signInRows.js';
import { v1Rows, v1SessionRows } from './matrix/v1Rows.js';
import { responseRows } from './matrix/responseRows.js';
import { actorKinds, sharedWorld, roomyRateLimits } from './matrix/world.js';
import { webhookRows } from './matrix/webhookRows.js';

/**
 * The authorization matrix (issues #9 and #20): one table of every endpoint × every actor kind, on both
 * dialects. Every /v1 method appears with each credential (an app token, a session, the app's secret; the
 * refusals of those it does not take are made from the protocol's list, matrix/credentialRows.ts), and
 * every route the server registers; each cell is a real HTTP call with the outcome it must have (the
 * tables are in ./matrix/*Rows.ts).
 *
 * The actors, all in team A unless said (P is a private channel the owner moderates; X an app of the owner's):
 * | none             | no credential at all                                                              |
 * | otherTeam        | Eve of team B, with her own team's app token and her session                      |
 * | nonMember        | Carol: installed X, not in P                                                      |
 * | nonInstaller     | Frank: member of P, never installed X (his token is for another app)              |
 * | guest            | Gina, role guest: installed X, member of P                                        |
 * | bot              | X's bot token (it stands in for a session too)                                    |
 * | revoked          | Rita: her token of X revoked by uninstalling, her session signed out              |
 * | userDisabled     | Dan: member of P, installed X and disabled it                                     |
 * | teamDisabled     | Tess: member of P, installed Y, which a team admin disabled; her app concerned is Y |
 * | anotherDeveloper | Dave: member of P, installed X, develops another app                              |
 * | admin            | Adam, team admin: installed X, not in P, develops nothing                         |
 * | owner            | Alice: developer of X and Y, moderator of P: the positive control                 |
 *
 * With the app's secret, each actor but `none` presents the secret of its app concerned (team B's app for
 * otherTeam): the secret is a developer's credential, not a person's or a user token.
 */
const rows: Row[] = [...v1Rows, ...v1SessionRows, ...sessionOnlyRows, ...refusedCredentialRows, ...developerRows, ...publicRows, ...attachmentRows, ...responseRows, ...webhookRows, ...messageChangeRows, ...invitationRows, ...pinRows, ...threadRows, ...auditRows, ...adminRows, ...signInRows, ...fileRows, ...notificationRows, ...pictureRows];

/**
 * What the table must hold for the methods, from the protocol's list: a row for every method with every
 * credential, so that a method added without its rows fails here.
 */
const methodRowNames = [...methodsByName.keys()].flatMap((name) => credentials.map((credential) => `v1 ${name}${credentialSuffix[credential]}`));

forEachDialect(
  'authorization matrix',
  (t) => {
    const w = sharedWorld(t);

    // GET and POST /v1/:method are the method API, whose rows are its methods.
    const covered = new Set(['GET /v1/:method', 'POST /v1/:method', ...rows.filter((row) => !row.route.startsWith('v1 ')).map((row) => row.route)]);

    it('has one row for every /v1 method with every credential: an app token, a session, the app’s secret', () => {
      const methodRows = rows.filter((row) => row.route.startsWith('v1 ')).map((row) => row.route);
      expect([...methodRows].sort()).toEqual([...methodRowNames].sort());
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
