import { AviaryApiError } from '@aviary/sdk';
import { describe, expect, it } from 'vitest';
import { deactivatePerson } from '../../src/core/commands/people.js';
import { teamWithApp } from '../helpers/factories.js';
import { increasingClock } from '../helpers/clock.js';
import { forEachDialect } from '../helpers/server.js';
import { cliActor } from '../../src/core/audit/record.js';

/** A well-formed user id that nobody has. */
const NOBODY = 'u:aaaaaaaaaaaaaaaa';
const NO_CHANNEL = 'g:aaaaaaaaaaaaaaaa';

// Join times are in milliseconds; the clock never reads the same twice, so the order of joins shows in them.
forEachDialect('channels', (t) => {
  const db = () => t().testStore.store.db;

  /** A team of `count` people who installed one app, each with a client for their token. */
  async function team(count = 4) {
    const cast = await teamWithApp(db(), count);
    const clients = cast.people.map((person) => t().client(person.token));
    return { ...cast, clients, ids: cast.people.map((person) => person.id) };
  }

  async function failure(call: Promise<unknown>): Promise<AviaryApiError> {
    const error = await call.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AviaryApiError);
    return error as AviaryApiError;
  }

  describe('channels.create', () => {
    it('makes a private channel by default, with the caller as moderator and the members added', async () => {
      const { clients, ids } = await team(3);
      const created = await clients[0].channels.create({ name: 'Planning', members: [ids[1], ids[2]] });
      expect(created).toEqual({ id: expect.stringMatching(/^g:[a-z2-7]{16}$/), members: { [ids[1]]: { status: 'added' }, [ids[2]]: { status: 'added' } } });
      expect(await clients[0].channels.getInfo({ channelId: created.id })).toEqual({
        id: created.id,
        name: 'Planning',
        purpose: '',
        type: 'private',
        memberCount: 3,
      });
      const [first, ...rest] = await clients[1].channels.listMembers({ channelId: created.id });
      expect(first).toEqual({ userId: ids[0], affiliation: 'moderator' });
      // Both joined in the same call, so their order between them is not pinned.
      expect(rest).toEqual(
        expect.arrayContaining([
          { userId: ids[1], affiliation: 'member' },
          { userId: ids[2], affiliation: 'member' },
        ]),
      );
      expect(rest).toHaveLength(2);
    });

    it('keeps the purpose, type and profile image it is given', async () => {
      const { clients, ids } = await team(2);
      const { id } = await clients[0].channels.create({
        name: 'Announcements',
        purpose: 'Company news',
        type: 'public',
        profileImage: 'https://img.example.test/news.png',
        members: [ids[1]],
      });
      expect(await clients[1].channels.getInfo({ channelId: id })).toEqual({
        id,
        name: 'Announcements',
        purpose: 'Company news',
        type: 'public',
        memberCount: 2,
        profileImage: 'https://img.example.test/news.png',
      });
    });

    it('gives every requested member a status: unknown, other team, bot, deactivated, the caller, duplicates', async () => {
      const { clients, ids, people, f, app } = await team(3);
      const outsider = (await teamWithApp(db(), 1)).people[0];
      const { botUserId } = await f.bot(app.id);
      await deactivatePerson(t().server.ctx, cliActor, { userId: ids[2] });
      const guest = await f.person(people[0].team_id, { role: 'guest' });

      const created = await clients[0].channels.create({
        name: 'Mixed',
        members: [NOBODY, outsider.id, botUserId, ids[2], ids[0], ids[1], ids[1], guest.id],
      });
      expect(created.members).toEqual({
        [NOBODY]: { status: 'failed', error: 'UserNotFound' },
        [outsider.id]: { status: 'failed', error: 'UserNotFromSameTeam' },
        [botUserId]: { status: 'failed', error: 'UserRestricted' },
        [ids[2]]: { status: 'failed', error: 'UserRestricted' },
        [ids[0]]: { status: 'failed', error: 'AlreadyMember' },
        [ids[1]]: { status: 'added' },
        // The creator moderates the new channel, and moderators may bring in guests.
        [guest.id]: { status: 'added' },
      });
      expect(Object.keys(created.members)).toEqual([NOBODY, outsider.id, botUserId, ids[2], ids[0], ids[1], guest.id]);
      expect((await clients[0].channels.getInfo({ channelId: created.id })).memberCount).toBe(3);
    });

    it('accepts an empty member list: a channel of one', async () => {
      const { clients } = await team(1);
      const created = await clients[0].channels.create({ name: 'Notes to self', members: [] });
      expect(created.members).toEqual({});
      expect((await clients[0].channels.getInfo({ channelId: created.id })).memberCount).toBe(1);
    });

    it('reads members from a form as a comma-separated string and from a query as a JSON string', async () => {
      const { people, ids } = await team(3);
      const fromForm = await t().call('channels.create', {
        form: { token: people[0].token, name: 'Form', members: ` ${ids[1]}, ${ids[2]} ` },
      });
      expect(fromForm.status).toBe(200);
      expect(fromForm.body.members).toEqual({ [ids[1]]: { status: 'added' }, [ids[2]]: { status: 'added' } });

      const fromQuery = await t().call('channels.create', {
        query: { token: people[0].token, name: 'Query', type: 'public', members: JSON.stringify([ids[1]]) },
      });
      expect(fromQuery.status).toBe(200);
      expect(fromQuery.body.members).toEqual({ [ids[1]]: { status: 'added' } });
      const info = await t().call('channels.getInfo', { query: { token: people[1].token, channelId: fromQuery.body.id } });
      expect(info.body).toMatchObject({ name: 'Query', type: 'public', memberCount: 2 });
    });

    it('names the offending parameter when the input is wrong', async () => {
      const { clients, ids } = await team(2);
      const client = clients[0];
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ members: [ids[1]] }, 'MissingParameter', 'name'],
        [{ name: '', members: [ids[1]] }, 'MissingParameter', 'name'],
        [{ name: 'x'.repeat(256), members: [ids[1]] }, 'InvalidParameter', 'name'],
        [{ name: 'No members' }, 'MissingParameter', 'members'],
        [{ name: 'Bad member', members: ['bob'] }, 'InvalidParameter', 'members'],
        [{ name: 'Bad type', type: 'secret', members: [] }, 'InvalidParameter', 'type'],
        [{ name: 'Bad image', profileImage: 'ftp://example.test/x.png', members: [] }, 'InvalidParameter', 'profileImage'],
      ];
      for (const [params, code, parameter] of cases) {
        const error = await failure(client.call('channels.create', params));
        expect(error, JSON.stringify(params)).toMatchObject({ code, status: 400, parameter });
        expect(error.body.description).toContain(parameter);
      }
      expect(await client.channels.list()).toEqual([]);
    });

    it('refuses a bot token: bots are not channel members', async () => {
      const { f, app } = await team(1);
      const { botToken } = await f.bot(app.id);
      const error = await failure(t().client(botToken).channels.create({ name: 'Bot room', members: [] }));
      expect(error).toMatchObject({ code: 'PermissionDenied', status: 403 });
      expect(error.body.description).toMatch(/bot/i);
    });
  });

  describe('channels.addMembers', () => {
    it('lets any member of a public channel add teammates, but only moderators bring in guests', async () => {
      const { clients, ids, people, f } = await team(3);
      const guest = await f.person(people[0].team_id, { role: 'guest' });
      const { id } = await clients[0].channels.create({ name: 'Open', type: 'public', members: [ids[1]] });
      expect(await clients[1].channels.addMembers({ channelId: id, members: [ids[2], guest.id] })).toEqual({
        members: { [ids[2]]: { status: 'added' }, [guest.id]: { status: 'failed', error: 'UserRestricted' } },
      });
      expect(await clients[0].channels.addMembers({ channelId: id, members: [guest.id] })).toEqual({
        members: { [guest.id]: { status: 'added' } },
      });
      expect((await clients[2].channels.getInfo({ channelId: id })).memberCount).toBe(4);
    });

    it('lets a teammate join a public channel, but not add others before joining', async () => {
      const { clients, ids } = await team(3);
      const { id } = await clients[0].channels.create({ name: 'Open', type: 'public', members: [] });
      const error = await failure(clients[1].channels.addMembers({ channelId: id, members: [ids[1], ids[2]] }));
      expect(error).toMatchObject({ code: 'PermissionDenied', status: 403 });
      expect(error.body.description).toMatch(/add yourself/);
      expect(await clients[1].channels.addMembers({ channelId: id, members: [ids[1]] })).toEqual({ members: { [ids[1]]: { status: 'added' } } });
      expect((await clients[1].channels.listMembers({ channelId: id })).map((member) => member.userId)).toEqual([ids[0], ids[1]]);
    });

    it('lets only moderators add to a private channel', async () => {
      const { clients, ids } = await team(4);
      const { id } = await clients[0].channels.create({ name: 'Closed', members: [ids[1]] });
      const error = await failure(clients[1].channels.addMembers({ channelId: id, members: [ids[2]] }));
      expect(error).toMatchObject({ code: 'PermissionDenied', status: 403 });
      expect(error.body.description).toMatch(/moderators/);
      expect((await clients[0].channels.getInfo({ channelId: id })).memberCount).toBe(2);
      expect(await clients[0].channels.addMembers({ channelId: id, members: [ids[2], ids[1]] })).toEqual({
        members: { [ids[2]]: { status: 'added' }, [ids[1]]: { status: 'failed', error: 'AlreadyMember' } },
      });
    });

    it('gives a team admin a moderator’s powers in the channels the admin can see', async () => {
      const { clients, ids, people, f } = await team(2);
      const admin = await f.person(people[0].team_id, { role: 'admin' });
      const adminClient = t().client((await f.install((await f.app(people[0].team_id, admin.id)).id, admin.id)).token);
      const guest = await f.person(people[0].team_id, { role: 'guest' });
      const { id } = await clients[0].channels.create({ name: 'Open', type: 'public', members: [ids[1]] });
      expect(await adminClient.channels.addMembers({ channelId: id, members: [guest.id] })).toEqual({ members: { [guest.id]: { status: 'added' } } });
      expect(await adminClient.channels.removeMembers({ channelId: id, members: [ids[1]] })).toEqual({ members: { [ids[1]]: { status: 'removed' } } });

      const { id: hidden } = await clients[0].channels.create({ name: 'Closed', members: [] });
      expect(await failure(adminClient.channels.addMembers({ channelId: hidden, members: [admin.id] }))).toMatchObject({ code: 'UnknownChannel' });
    });

    it('reports unknown, foreign, bot and deactivated users one by one', async () => {
      const { clients, ids, f, app } = await team(3);
      const outsider = (await teamWithApp(db(), 1)).people[0];
      const { botUserId } = await f.bot(app.id);
      await deactivatePerson(t().server.ctx, cliActor, { userId: ids[2] });
      const { id } = await clients[0].channels.create({ name: 'Closed', members: [] });
      expect(await clients[0].channels.addMembers({ channelId: id, members: [NOBODY, outsider.id, botUserId, ids[2], ids[1]] })).toEqual({
        members: {
          [NOBODY]: { status: 'failed', error: 'UserNotFound' },
          [outsider.id]: { status: 'failed', error: 'UserNotFromSameTeam' },
          [botUserId]: { status: 'failed', error: 'UserRestricted' },
          [ids[2]]: { status: 'failed', error: 'UserRestricted' },
          [ids[1]]: { status: 'added' },
        },
      });
    });

    it('answers UnknownChannel for a missing channel, a private one the caller is not in, and another team’s', async () => {
      const { clients, ids } = await team(2);
      const other = await team(1);
      const { id: closed } = await clients[0].channels.create({ name: 'Closed', members: [] });
      const { id: foreign } = await other.clients[0].channels.create({ name: 'Theirs', type: 'public', members: [] });
      for (const channelId of [NO_CHANNEL, closed, foreign]) {
        const error = await failure(clients[1].channels.addMembers({ channelId, members: [ids[1]] }));
        expect(error).toMatchObject({ code: 'UnknownChannel', status: 400 });
      }
      expect(await other.clients[0].channels.listMembers({ channelId: foreign })).toEqual([{ userId: other.ids[0], affiliation: 'moderator' }]);
    });

    it('refuses a bot token, and hides private channels from it', async () => {
      const { clients, ids, f, app } = await team(2);
      const bot = t().client((await f.bot(app.id)).botToken);
      const { id: open } = await clients[0].channels.create({ name: 'Open', type: 'public', members: [] });
      const { id: closed } = await clients[0].channels.create({ name: 'Closed', members: [] });
      const denied = await failure(bot.channels.addMembers({ channelId: open, members: [ids[1]] }));
      expect(denied).toMatchObject({ code: 'PermissionDenied', status: 403 });
      expect(denied.body.description).toMatch(/bot/i);
      expect(await failure(bot.channels.addMembers({ channelId: closed, members: [ids[1]] }))).toMatchObject({ code: 'UnknownChannel' });
    });

    it('validates channelId and members', async () => {
      const { people, ids } = await team(2);
      const call = (form: Record<string, string>) => t().call('channels.addMembers', { form: { token: people[0].token, ...form } });
      expect((await call({ members: ids[1] })).body).toMatchObject({ error: 'MissingParameter', parameter: 'channelId' });
      expect((await call({ channelId: 'general', members: ids[1] })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'channelId' });
      expect((await call({ channelId: NO_CHANNEL })).body).toMatchObject({ error: 'MissingParameter', parameter: 'members' });
      expect((await call({ channelId: NO_CHANNEL, members: '[]' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'members' });
      expect((await call({ channelId: NO_CHANNEL, members: '["u:x"' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'members' });
    });
  });

  describe('channels.removeMembers', () => {
    it('lets anyone leave, and only moderators remove others', async () => {
      const { clients, ids } = await team(4);
      for (const type of ['private', 'public'] as const) {
        const { id } = await clients[0].channels.create({ name: `Room ${type}`, type, members: [ids[1], ids[2], ids[3]] });
        const denied = await failure(clients[1].channels.removeMembers({ channelId: id, members: [ids[1], ids[2]] }));
        expect(denied).toMatchObject({ code: 'PermissionDenied', status: 403 });
        expect(denied.body.description).toMatch(/remove themselves/);
        expect((await clients[0].channels.getInfo({ channelId: id })).memberCount).toBe(4);

        expect(await clients[1].channels.removeMembers({ channelId: id, members: [ids[1]] })).toEqual({ members: { [ids[1]]: { status: 'removed' } } });
        expect(await clients[0].channels.removeMembers({ channelId: id, members: [ids[2]] })).toEqual({ members: { [ids[2]]: { status: 'removed' } } });
        expect((await clients[0].channels.listMembers({ channelId: id })).map((member) => member.userId)).toEqual([ids[0], ids[3]]);
      }
    });

    it('reports non-members, unknown and foreign users one by one', async () => {
      const { clients, ids, f, app } = await team(3);
      const outsider = (await teamWithApp(db(), 1)).people[0];
      const { botUserId } = await f.bot(app.id);
      const { id } = await clients[0].channels.create({ name: 'Closed', members: [ids[1]] });
      expect(await clients[0].channels.removeMembers({ channelId: id, members: [NOBODY, outsider.id, botUserId, ids[2], ids[1], ids[1]] })).toEqual({
        members: {
          [NOBODY]: { status: 'failed', error: 'UserNotFound' },
          [outsider.id]: { status: 'failed', error: 'UserNotFromSameTeam' },
          [botUserId]: { status: 'failed', error: 'NotMember' },
          [ids[2]]: { status: 'failed', error: 'NotMember' },
          [ids[1]]: { status: 'removed' },
        },
      });
    });

    it('tells a teammate who is not in a public channel that they are not a member', async () => {
      const { clients, ids } = await team(2);
      const { id } = await clients[0].channels.create({ name: 'Open', type: 'public', members: [] });
      expect(await clients[1].channels.removeMembers({ channelId: id, members: [ids[1]] })).toEqual({
        members: { [ids[1]]: { status: 'failed', error: 'NotMember' } },
      });
    });

    it('makes the longest-standing member moderator when the last moderator leaves', async () => {
      const { clients, ids } = await team(3);
      const { id } = await clients[0].channels.create({ name: 'Closed', members: [ids[1]] });
      await clients[0].channels.addMembers({ channelId: id, members: [ids[2]] });
      await clients[0].channels.removeMembers({ channelId: id, members: [ids[0]] });
      expect(await clients[1].channels.listMembers({ channelId: id })).toEqual([
        { userId: ids[1], affiliation: 'moderator' },
        { userId: ids[2], affiliation: 'member' },
      ]);
      expect(await clients[1].channels.removeMembers({ channelId: id, members: [ids[2]] })).toEqual({ members: { [ids[2]]: { status: 'removed' } } });
    });

    it('hides private channels from non-members and refuses bots removing others', async () => {
      const { clients, ids, f, app, people } = await team(2);
      const { id: closed } = await clients[0].channels.create({ name: 'Closed', members: [] });
      expect(await failure(clients[1].channels.removeMembers({ channelId: closed, members: [ids[1]] }))).toMatchObject({ code: 'UnknownChannel', status: 400 });
      const { id: open } = await clients[0].channels.create({ name: 'Open', type: 'public', members: [ids[1]] });
      const bot = t().client((await f.bot(app.id)).botToken);
      const denied = await failure(bot.channels.removeMembers({ channelId: open, members: [ids[1]] }));
      expect(denied).toMatchObject({ code: 'PermissionDenied', status: 403 });
      expect(denied.body.description).toMatch(/bot/i);

      const asJsonString = await t().call('channels.removeMembers', {
        form: { token: people[1].token, channelId: open, members: JSON.stringify([ids[1]]) },
      });
      expect(asJsonString.body).toEqual({ members: { [ids[1]]: { status: 'removed' } } });
    });
  });

  describe('channels.getInfo', () => {
    it('shows public channels to the whole team and private ones to their members only', async () => {
      const { clients, ids } = await team(3);
      const { id: open } = await clients[0].channels.create({ name: 'Open', type: 'public', members: [] });
      const { id: closed } = await clients[0].channels.create({ name: 'Closed', members: [ids[1]] });
      expect(await clients[2].channels.getInfo({ channelId: open })).toEqual({ id: open, name: 'Open', purpose: '', type: 'public', memberCount: 1 });
      expect(await clients[1].channels.getInfo({ channelId: closed })).toMatchObject({ id: closed, memberCount: 2 });
      const hidden = await failure(clients[2].channels.getInfo({ channelId: closed }));
      expect(hidden).toMatchObject({ code: 'UnknownChannel', status: 400 });
      expect(hidden.body.description).toContain(closed);
    });

    it('never shows another team’s channels, public or not', async () => {
      const { clients } = await team(1);
      const other = await team(1);
      const { id } = await other.clients[0].channels.create({ name: 'Theirs', type: 'public', members: [] });
      expect(await failure(clients[0].channels.getInfo({ channelId: id }))).toMatchObject({ code: 'UnknownChannel' });
      expect(await failure(clients[0].channels.getInfo({ channelId: NO_CHANNEL }))).toMatchObject({ code: 'UnknownChannel' });
    });

    it('validates channelId', async () => {
      const { people } = await team(1);
      expect((await t().call('channels.getInfo', { query: { token: people[0].token } })).body).toMatchObject({
        error: 'MissingParameter',
        parameter: 'channelId',
      });
      const wrong = await t().call('channels.getInfo', { query: { token: people[0].token, channelId: 'u:aaaaaaaaaaaaaaaa' } });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ error: 'InvalidParameter', parameter: 'channelId' });
    });
  });

  describe('channels.list', () => {
    it('lists the channels the caller is in, by name, with their member counts', async () => {
      const { clients, ids } = await team(3);
      const other = await team(1);
      await other.clients[0].channels.create({ name: 'Theirs', type: 'public', members: [] });
      const { id: zebra } = await clients[0].channels.create({ name: 'zebra', type: 'public', members: [ids[1], ids[2]] });
      const { id: alpha } = await clients[0].channels.create({ name: 'Alpha', members: [ids[1]], profileImage: 'https://img.example.test/a.png' });
      await clients[0].channels.create({ name: 'Not mine', type: 'public', members: [] });
      await clients[0].channels.create({ name: 'Secret', members: [] });

      expect(await clients[1].channels.list()).toEqual([
        { id: alpha, name: 'Alpha', purpose: '', type: 'private', memberCount: 2, profileImage: 'https://img.example.test/a.png' },
        { id: zebra, name: 'zebra', purpose: '', type: 'public', memberCount: 3 },
      ]);
      await clients[1].channels.removeMembers({ channelId: alpha, members: [ids[1]] });
      expect((await clients[1].channels.list()).map((channel) => channel.id)).toEqual([zebra]);
      expect(await other.clients[0].channels.list()).toHaveLength(1);
    });
  });

  describe('channels.listMembers', () => {
    it('adds public profiles on request', async () => {
      const { clients, ids, people, f } = await team(1);
      const pictured = await f.person(people[0].team_id, { firstName: 'Ada', lastName: 'Lovelace', profileImage: 'https://img.example.test/ada.png' });
      const { id } = await clients[0].channels.create({ name: 'Open', type: 'public', members: [pictured.id] });
      const raw = await t().call('channels.listMembers', { query: { token: people[0].token, channelId: id, showPublicProfile: 'true' } });
      expect(raw.status).toBe(200);
      expect(raw.body).toEqual([
        { userId: ids[0], affiliation: 'moderator', publicProfile: { id: ids[0], firstName: people[0].first_name, lastName: people[0].last_name } },
        {
          userId: pictured.id,
          affiliation: 'member',
          publicProfile: { id: pictured.id, firstName: 'Ada', lastName: 'Lovelace', profileImage: 'https://img.example.test/ada.png' },
        },
      ]);
      expect(await clients[0].channels.listMembers({ channelId: id, showPublicProfile: false })).toEqual([
        { userId: ids[0], affiliation: 'moderator' },
        { userId: pictured.id, affiliation: 'member' },
      ]);
      const bad = await t().call('channels.listMembers', { query: { token: people[0].token, channelId: id, showPublicProfile: 'maybe' } });
      expect(bad.body).toMatchObject({ error: 'InvalidParameter', parameter: 'showPublicProfile' });
    });

    it('answers UnknownChannel when the caller cannot see the channel', async () => {
      const { clients } = await team(2);
      const other = await team(1);
      const { id: closed } = await clients[0].channels.create({ name: 'Closed', members: [] });
      const { id: foreign } = await other.clients[0].channels.create({ name: 'Theirs', type: 'public', members: [] });
      for (const channelId of [closed, foreign, NO_CHANNEL]) {
        expect(await failure(clients[1].channels.listMembers({ channelId }))).toMatchObject({ code: 'UnknownChannel', status: 400 });
      }
    });
  });
}, {}, { now: increasingClock() });
