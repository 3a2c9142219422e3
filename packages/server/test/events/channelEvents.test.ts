import { expect, it } from 'vitest';
import { sessionFor } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';

const channelEvents = ['channel.memberJoined', 'channel.memberLeft', 'channel.created'];

/**
 * A channel created, a member joining or added, a member leaving or removed: the apps that see into the
 * channel (those a member installed) hear of it, only when they subscribed; never an app no member
 * installed (a private channel's existence does not leak), nor the app whose token made the change, nor
 * one a team admin disabled.
 */
forEachDialect('channel events: created, member joined, member left', (t) => {
  it('reach only the subscribing apps a member installed, never the changer’s app', async () => {
    const db = t().testStore.store.db;
    const team = await t().f.team();
    const [ann, ben, cy, dee, eve] = await Promise.all(['Ann', 'Ben', 'Cy', 'Dee', 'Eve'].map((firstName) => t().f.person(team.id, { firstName, lastName: 'Member' })));
    const app = (name: string, eventSubscriptions?: string[]) => t().f.app(team.id, ann.id, { name, ...(eventSubscriptions ? { eventSubscriptions } : {}) });
    const watcher = await app('Watcher', channelEvents);
    const quiet = await app('Quiet');
    const outsider = await app('Outsider', channelEvents);
    const maker = await app('Maker', channelEvents);
    const disabled = await app('Disabled', channelEvents);
    for (const id of [watcher.id, quiet.id, disabled.id]) await t().f.install(id, ben.id);
    await t().f.install(outsider.id, dee.id);
    const makerClient = t().client((await t().f.install(maker.id, ann.id)).token);
    await db.updateTable('apps').set({ disabled_by_team: 1 }).where('id', '=', disabled.id).execute();
    const [annSession, benSession] = [await sessionFor(t(), ann), await sessionFor(t(), ben)];

    // Created through Maker's token: Watcher hears (Ben installed it), Maker does not (it made the change).
    const { id: secret } = await makerClient.channels.create({ name: 'secret', members: [ben.id, cy.id] });
    // Eve added by Ann in the client, then Ben leaving by himself: Maker hears these (Ann installed it).
    expect((await annSession.call('channels.addMembers', { channelId: secret, members: [eve.id] })).status).toBe(200);
    expect((await benSession.call('channels.removeMembers', { channelId: secret, members: [ben.id] })).status).toBe(200);
    // Now that Ben has left, Watcher hears nothing more of the channel.
    await makerClient.channels.removeMembers({ channelId: secret, members: [cy.id] });
    // A public channel Ben joins: Watcher hears of his joining, not of the creation before it.
    const { id: open } = await makerClient.channels.create({ name: 'open', type: 'public', members: [] });
    expect((await benSession.call('channels.join', { channelId: open })).status).toBe(200);

    const events = async (appId: string) =>
      (await db.selectFrom('events').select(['name', 'payload', 'user_id']).where('app_id', '=', appId).execute())
        .map((row) => {
          expect(row.user_id).toBe(JSON.parse(row.payload).userId);
          return JSON.parse(row.payload) as Record<string, unknown>;
        })
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const sorted = (list: Array<Record<string, unknown>>) => [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const secretRef = { id: secret, name: 'secret', type: 'private' };
    const openRef = { id: open, name: 'open', type: 'public' };
    expect(await events(watcher.id)).toEqual(
      sorted([
        { name: 'channel.created', userId: ann.id, channel: secretRef, memberCount: 3 },
        { name: 'channel.memberJoined', userId: eve.id, channel: secretRef, byUserId: ann.id },
        { name: 'channel.memberLeft', userId: ben.id, channel: secretRef },
        { name: 'channel.memberJoined', userId: ben.id, channel: openRef },
      ]),
    );
    expect(await events(maker.id)).toEqual(
      sorted([
        { name: 'channel.memberJoined', userId: eve.id, channel: secretRef, byUserId: ann.id },
        { name: 'channel.memberLeft', userId: ben.id, channel: secretRef },
        { name: 'channel.memberJoined', userId: ben.id, channel: openRef },
      ]),
    );
    for (const unheard of [quiet, outsider, disabled]) expect(await events(unheard.id), unheard.name).toEqual([]);
  });

  it('tells of a channel created with many members once per app', async () => {
    const db = t().testStore.store.db;
    const team = await t().f.team();
    const people = await Promise.all(Array.from({ length: 6 }, (_, index) => t().f.person(team.id, { firstName: `P${index}`, lastName: 'Crowd' })));
    const watcher = await t().f.app(team.id, people[0].id, { name: 'Watcher', eventSubscriptions: channelEvents });
    for (const person of people.slice(1)) await t().f.install(watcher.id, person.id);
    const creator = await sessionFor(t(), people[0]);
    const { body } = await creator.call('channels.create', { name: 'crowd', members: people.slice(1).map((person) => person.id) });
    const rows = await db.selectFrom('events').select(['name', 'payload']).where('app_id', '=', watcher.id).execute();
    expect(rows.map((row) => JSON.parse(row.payload))).toEqual([{ name: 'channel.created', userId: people[0].id, channel: { id: body.id, name: 'crowd', type: 'private' }, memberCount: 6 }]);
  });
});
