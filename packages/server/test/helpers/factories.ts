import { randomBytes } from 'node:crypto';
import { createApp, enableBot, recordInstall } from '../../src/core/commands/apps.js';
import { createPerson, createTeam, type NewPerson } from '../../src/core/commands/people.js';
import type { AppsTable, UsersTable } from '../../src/store/schema.js';
import type { Db } from '../../src/store/store.js';

const unique = () => randomBytes(4).toString('hex');

/** Test data made through the same commands the product uses; every call makes new rows. */
export function factories(db: Db, now: () => number = Date.now) {
  return {
    team: (name = `Team ${unique()}`) => createTeam(db, { name, now: now() }),
    person: (teamId: string, fields: Partial<NewPerson> = {}): Promise<UsersTable> =>
      createPerson(db, {
        teamId,
        email: `person-${unique()}@example.test`,
        firstName: 'Pat',
        lastName: `Person ${unique()}`,
        ...fields,
        now: now(),
      }),
    app: (teamId: string, developerId: string, fields: Partial<Parameters<typeof createApp>[1]> = {}): Promise<AppsTable> =>
      createApp(db, { teamId, developerId, name: `App ${unique()}`, ...fields, now: now() }),
    install: (appId: string, userId: string) => recordInstall(db, { appId, userId, now: now() }),
    bot: (appId: string) => enableBot(db, appId, now()),
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
