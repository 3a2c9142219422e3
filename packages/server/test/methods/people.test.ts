import { AviaryApiError } from '@aviary/sdk';
import { describe, expect, it } from 'vitest';
import { deactivatePerson } from '../../src/core/commands/people.js';
import { teamSystemUser } from '../../src/events/delivery/systemUser.js';
import { teamWithApp } from '../helpers/factories.js';
import { forEachDialect } from '../helpers/server.js';
import { cliActor } from '../../src/core/audit/record.js';

forEachDialect('people', (t) => {
  const db = () => t().testStore.store.db;

  describe('roster.listContacts', () => {
    it('lists active teammates and the bots of installed apps, by name, never the caller or other teams', async () => {
      const { people, f, app, team } = await teamWithApp(db(), 1);
      const me = people[0];
      const zoe = await f.person(team.id, { firstName: 'Zoe', lastName: 'Adams', profileImage: 'https://img.example.test/zoe.png' });
      const amy = await f.person(team.id, { firstName: 'Amy', lastName: 'Brown' });
      const guest = await f.person(team.id, { firstName: 'Gus', lastName: 'Guest', role: 'guest' });
      const gone = await f.person(team.id, { firstName: 'Gone', lastName: 'Away' });
      await deactivatePerson(t().server.ctx, cliActor, { userId: gone.id });
      const { botUserId: installedBot } = await f.bot(app.id);
      // A bot of an app the caller never installed is reached by messaging it, not through contacts.
      await f.bot((await f.app(team.id, zoe.id, { name: 'Other' })).id);
      await teamWithApp(db(), 2);
      // The team's system user speaks to people (delivery notices) but is nobody's contact or channel member.
      const systemUserId = await db().transaction().execute((tx) => teamSystemUser(tx, team.id, Date.now()));
      const { members } = await t().client(me.token).channels.create({ name: 'no system', members: [systemUserId] });
      expect(members[systemUserId]).toEqual({ status: 'failed', error: 'UserRestricted' });

      expect(await t().client(me.token).roster.listContacts()).toEqual([
        { id: amy.id, firstName: 'Amy', lastName: 'Brown' },
        { id: installedBot, firstName: app.name, lastName: 'Bot' },
        { id: guest.id, firstName: 'Gus', lastName: 'Guest' },
        { id: zoe.id, firstName: 'Zoe', lastName: 'Adams', profileImage: 'https://img.example.test/zoe.png' },
      ]);
    });

    it('gives a bot its team’s people', async () => {
      const { people, f, app } = await teamWithApp(db(), 2);
      const { botToken } = await f.bot(app.id);
      const contacts = await t().client(botToken).roster.listContacts();
      expect(contacts.map((contact) => contact.id).sort()).toEqual(people.map((person) => person.id).sort());
    });
  });

  describe('users.getPublicProfile', () => {
    it('describes a teammate, a bot and the caller', async () => {
      const { people, f, app, team } = await teamWithApp(db(), 1);
      const client = t().client(people[0].token);
      const ada = await f.person(team.id, { firstName: 'Ada', lastName: 'Lovelace', profileImage: 'https://img.example.test/ada.png' });
      const { botUserId } = await f.bot(app.id);
      expect(await client.users.getPublicProfile({ userId: ada.id })).toEqual({
        id: ada.id,
        firstName: 'Ada',
        lastName: 'Lovelace',
        profileImage: 'https://img.example.test/ada.png',
      });
      expect(await client.users.getPublicProfile({ userId: botUserId })).toEqual({ id: botUserId, firstName: app.name, lastName: 'Bot' });
      const mine = await t().call('users.getPublicProfile', { query: { token: people[0].token, userId: people[0].id } });
      expect(mine.body).toEqual({ id: people[0].id, firstName: people[0].first_name, lastName: people[0].last_name });
    });

    it('answers UnknownUser alike for nobody and for another team’s user', async () => {
      const { people } = await teamWithApp(db(), 1);
      const outsider = (await teamWithApp(db(), 1)).people[0];
      const client = t().client(people[0].token);
      for (const userId of ['u:aaaaaaaaaaaaaaaa', outsider.id]) {
        const error = await client.users.getPublicProfile({ userId }).catch((thrown: unknown) => thrown);
        expect(error).toBeInstanceOf(AviaryApiError);
        expect(error).toMatchObject({ code: 'UnknownUser', status: 400 });
        expect((error as AviaryApiError).body.description).toBe(`There is no user ${userId} in your team.`);
      }
    });

    it('validates userId', async () => {
      const { people } = await teamWithApp(db(), 1);
      const call = (query: Record<string, string>) => t().call('users.getPublicProfile', { query: { token: people[0].token, ...query } });
      expect((await call({})).body).toMatchObject({ error: 'MissingParameter', parameter: 'userId' });
      const wrong = await call({ userId: 'g:aaaaaaaaaaaaaaaa' });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ error: 'InvalidParameter', parameter: 'userId' });
    });
  });
});
