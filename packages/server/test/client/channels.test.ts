import { afterAll, expect, it } from 'vitest';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { clientCast, closeSdkApps, expectError, http } from './harness.js';

afterAll(closeSdkApps);

/** The frame types the team's stream recorded, oldest first. */
async function streamTypes(t: TestServer, teamId: string): Promise<string[]> {
  const rows = await t.testStore.store.db.selectFrom('stream_entries').select('type').where('team_id', '=', teamId).orderBy('seq').execute();
  return rows.map((row) => row.type);
}

forEachDialect('client API: channels and their members', (t) => {
  it('creates a public channel that a teammate browses and joins, each change on the stream', async () => {
    const { alice, team, person } = await clientCast(t());
    const carla = await person('Carla');
    const created = await alice.post('/channels', { name: 'design', purpose: 'Pixels', type: 'public' });
    expect(created.status).toBe(200);
    expect(created.body.channel).toMatchObject({ name: 'design', purpose: 'Pixels', type: 'public', memberCount: 1 });
    const id = created.body.channel.id;

    const browsed = await carla.call('channels.listPublic');
    expect(browsed.body.channels).toEqual([{ channel: expect.objectContaining({ id, name: 'design' }), isMember: false }]);
    const joined = await carla.call('channels.join', { channelId: id });
    expect(joined.body.channel).toMatchObject({ id, memberCount: 2 });
    // Joining again is no change.
    expect((await carla.call('channels.join', { channelId: id })).body.channel.memberCount).toBe(2);
    expect((await carla.call('channels.listPublic')).body.channels[0].isMember).toBe(true);
    const types = await streamTypes(t(), team.id);
    expect(types, JSON.stringify(types)).toEqual(expect.arrayContaining(['channel.created', 'channel.membersAdded']));
  });

  it('does not show or let anyone join a private channel they are not in', async () => {
    const { alice, bob, person } = await clientCast(t());
    const carla = await person('Carla');
    const secret = await alice.post('/channels', { name: 'secret', members: [bob.user.id] });
    expect(secret.body.channel.type).toBe('private');
    expect((await carla.call('channels.listPublic')).body.channels).toEqual([]);
    expectError(await carla.call('channels.join', { channelId: secret.body.channel.id }), { error: 'UnknownChannel', parameter: 'channelId' });
    expectError(await carla.get(`/channels/${secret.body.channel.id}/members`), { error: 'UnknownChannel', parameter: 'channelId' });
    // A member joining the private channel they are in: no change, not a refusal.
    expect((await bob.call('channels.join', { channelId: secret.body.channel.id })).body.channel).toMatchObject({ memberCount: 2 });
  });

  it('lets a person change their own name and timezone, checked like a new person’s fields', async () => {
    const { bob } = await clientCast(t());
    const patch = (json: unknown) => http(t().url, 'POST', '/v1/users.updateProfile', { json, headers: { authorization: `Bearer ${bob.sessionToken}` } });
    const changed = await patch({ firstName: '  Robert ', timezone: '-05:30' });
    expect(changed.body.user).toMatchObject({ id: bob.user.id, firstName: 'Robert', lastName: 'Baker', timezone: '-05:30' });
    expect((await bob.get('/roster')).status).toBe(200);
    expectError(await patch({ firstName: '   ' }), { error: 'MissingParameter', parameter: 'firstName' });
    expectError(await patch({ timezone: 'Europe/Paris' }), { error: 'InvalidParameter', parameter: 'timezone' });
    expectError(await patch({ email: 'x@example.com' }), { error: 'InvalidParameter', parameter: 'email' });
  });

  it('lists members with what the person may do, and adds and removes as the channel rules allow', async () => {
    const { alice, bob, person } = await clientCast(t());
    const carla = await person('Carla');
    const id = (await alice.post('/channels', { name: 'ops', members: [bob.user.id] })).body.channel.id;

    const asModerator = await alice.get(`/channels/${id}/members`);
    expect(asModerator.body).toMatchObject({ canAddMembers: true, canRemoveMembers: true, channel: { id, memberCount: 2 } });
    expect(asModerator.body.members.map((m: { userId: string }) => m.userId)).toEqual([alice.user.id, bob.user.id]);
    expect(asModerator.body.members[1].publicProfile).toMatchObject({ firstName: 'Bob' });
    expect((await bob.get(`/channels/${id}/members`)).body).toMatchObject({ canAddMembers: false, canRemoveMembers: false });

    expectError(await bob.call('channels.addMembers', { channelId: id, members: [carla.user.id] }), { status: 403, error: 'PermissionDenied' });
    const added = await alice.call('channels.addMembers', { channelId: id, members: [carla.user.id, 'u:aaaaaaaaaaaaaaaa'] });
    expect(added.body.members, JSON.stringify(added.body)).toEqual({
      [carla.user.id]: { status: 'added' },
      'u:aaaaaaaaaaaaaaaa': { status: 'failed', error: 'UserNotFound' },
    });
    expectError(await bob.call('channels.removeMembers', { channelId: id, members: [carla.user.id] }), { status: 403, error: 'PermissionDenied' });
    // Anyone may leave.
    expect((await bob.call('channels.removeMembers', { channelId: id, members: [bob.user.id] })).body.members).toEqual({ [bob.user.id]: { status: 'removed' } });
    expect((await alice.call('channels.removeMembers', { channelId: id, members: [carla.user.id] })).body.members).toEqual({ [carla.user.id]: { status: 'removed' } });
    expect((await alice.get(`/channels/${id}/members`)).body.channel.memberCount).toBe(1);
  });

  it('refuses bad input naming the parameter', async () => {
    const { alice } = await clientCast(t());
    expectError(await alice.post('/channels', { name: '' }), { error: 'MissingParameter', parameter: 'name' });
    expectError(await alice.post('/channels', { name: 'x', type: 'secret' }), { error: 'InvalidParameter', parameter: 'type' });
    expectError(await alice.post('/channels', { name: 'x', colour: 'red' }), { error: 'InvalidParameter', parameter: 'colour' });
    expectError(await alice.post('/channels', { name: 'x'.repeat(256) }), { error: 'InvalidParameter', parameter: 'name' });
    const id = (await alice.post('/channels', { name: 'ok' })).body.channel.id;
    expectError(await alice.call('channels.addMembers', { channelId: id, members: [] }), { error: 'MissingParameter', parameter: 'members' });
    expectError(await alice.call('channels.addMembers', { channelId: id }), { error: 'MissingParameter', parameter: 'members' });
    expectError(await alice.call('channels.join', { channelId: 'g:nope' }), { error: 'InvalidParameter', parameter: 'channelId' });
  });
});
