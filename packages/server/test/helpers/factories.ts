import { randomBytes } from 'node:crypto';
import { createApp, enableBot, recordInstall, type NewApp } from '../../src/core/commands/apps.js';
import { cliActor } from '../../src/core/audit/record.js';
import { storeContext } from '../../src/core/context.js';
import { createPerson, createTeam, type NewPerson } from '../../src/core/commands/people.js';
import type { AppsTable, UsersTable } from '../../src/store/schema.js';
import type { Db } from '../../src/store/store.js';

const unique = () => randomBytes(4).toString('hex');

/** Test data made through the same commands the product uses; every call makes new rows. */
export function factories(db: Db, now: () => number = Date.now) {
  const ctx = storeContext(db, now);
  return {
    team: (name = `Team ${unique()}`) => createTeam(ctx, cliActor, { name }),
    person: (teamId: string, fields: Partial<NewPerson> = {}): Promise<UsersTable> =>
      createPerson(ctx, cliActor, {
        teamId,
        email: `person-${unique()}@example.test`,
        firstName: 'Pat',
        lastName: `Person ${unique()}`,
        ...fields,
      }),
    app: (teamId: string, developerId: string, fields: Partial<NewApp> = {}): Promise<AppsTable> =>
      createApp(ctx, cliActor, { developer: { id: developerId, team_id: teamId }, name: `App ${unique()}`, ...fields }),
    install: (appId: string, userId: string) => recordInstall(ctx, { id: userId }, { appId }),
    bot: (appId: string) => enableBot(ctx, cliActor, { appId }),
  };
}

export type Factories = ReturnType<typeof factories>;

/**
 * A team with an app and `count` people who installed it: the usual cast of a method test.
 * Returns each person's row and their token for the app.
 */
export async function teamWithApp(db: Db, count = 3) {
  const f = factories(db);
  const team = await f.team();
  const people: Array<UsersTable & { token: string }> = [];
  for (let i = 0; i < count; i++) people.push({ ...(await f.person(team.id)), token: '' });
  const app = await f.app(team.id, people[0].id);
  for (const person of people) person.token = (await f.install(app.id, person.id)).token;
  return { team, app, people, f };
}
