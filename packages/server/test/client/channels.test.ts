import { afterAll, expect, it } from 'vitest';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { clientCast, closeSdkApps, expectError, http, sessionFor, type SignedIn } from './harness.js';

afterAll(closeSdkApps);

/** The frame types the team's stream recorded, oldest first. */
async function streamTypes(t: TestServer, teamId: string): Promise<string[]> {
  const rows = await t.testStore.store.db.selectFrom('stream_entries').select('type').where('team_id', '=', teamId).orderBy('seq').execute();
  return rows.map((row) => row.type);
}

/** channels.create as the web client calls it: with a session, and no one else to add. */
const create = (who: SignedIn, params: Record<string, unknown>) => who.call('channels.create', { members: [], ...params });

forEachDialect('a person’s channels and their members, through the methods', (t) => {
  it('creates a public channel that a teammate browses and joins, each change on the stream', async () => {
    const { alice, team, person } = await clientCast(t());
    const carla = await person('Carla');
    const created = await create(alice, { name: 'design', purpose: 'Pixels', type: 'public' });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect((await alice.call('channels.getInfo', { channelId: id })).body).toMatchObject({ name: 'design', purpose: 'Pixels', type: 'public', memberCount: 1 });

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

  it('offers a guest only the public channels they are in: the others are not theirs to browse or join', async () => {
    const { alice, team } = await clientCast(t());
    const gus = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Gus', lastName: 'Guest', role: 'guest' }));
    const theirs = (await create(alice, { name: 'visitors', type: 'public' })).body.id;
    const other = (await create(alice, { name: 'staff', type: 'public' })).body.id;
    expect((await alice.call('channels.addMembers', { channelId: theirs, members: [gus.user.id] })).status).toBe(200);
    expect((await gus.call('channels.listPublic')).body.channels).toEqual([{ channel: expect.objectContaining({ id: theirs }), isMember: true }]);
    expect((await alice.call('channels.listPublic')).body.channels.map((row: { channel: { id: string } }) => row.channel.id)).toEqual(expect.arrayContaining([theirs, other]));
    expectError(await gus.call('channels.join', { channelId: other }), { status: 403, error: 'PermissionDenied', parameter: 'channelId' });
  });

  it('does not show or let anyone join a private channel they are not in', async () => {
    const { alice, bob, person } = await clientCast(t());
    const carla = await person('Carla');
    const secret = await alice.call('channels.create', { name: 'secret', members: [bob.user.id] });
    const secretId = secret.body.id;
    expect((await bob.call('channels.getInfo', { channelId: secretId })).body.type).toBe('private');
    expect((await carla.call('channels.listPublic')).body.channels).toEqual([]);
    expectError(await carla.call('channels.join', { channelId: secretId }), { error: 'UnknownChannel', parameter: 'channelId' });
    expectError(await carla.call('channels.listMembers', { channelId: secretId }), { error: 'UnknownChannel', parameter: 'channelId' });
    expectError(await carla.call('channels.getInfo', { channelId: secretId }), { error: 'UnknownChannel', parameter: 'channelId' });
    // A member joining the private channel they are in: no change, not a refusal.
    expect((await bob.call('channels.join', { channelId: secretId })).body.channel).toMatchObject({ memberCount: 2 });
  });

  it('lets a person change their own name and timezone, checked like a new person’s fields', async () => {
    const { bob } = await clientCast(t());
    const patch = (json: unknown) => http(t().url, 'POST', '/v1/users.updateProfile', { json, headers: { authorization: `Bearer ${bob.sessionToken}` } });
    const changed = await patch({ firstName: '  Robert ', timezone: '+05:45' });
    expect(changed.body.user).toMatchObject({ id: bob.user.id, firstName: 'Robert', lastName: 'Baker', timezone: '+05:45', timeZone: 'Asia/Kathmandu' });
    expectError(await patch({ firstName: '   ' }), { error: 'MissingParameter', parameter: 'firstName' });
    expectError(await patch({ timezone: 'Mars/Olympus_Mons' }), { error: 'InvalidParameter', parameter: 'timezone' });
    expectError(await patch({ email: 'x@example.com' }), { error: 'InvalidParameter', parameter: 'email' });
  });

  it('lists members and says what the person may do, and adds and removes as the channel rules allow', async () => {
    const { alice, bob, person, app } = await clientCast(t());
    const carla = await person('Carla');
    const id = (await alice.call('channels.create', { name: 'ops', members: [bob.user.id] })).body.id;
    const abilities = async (who: SignedIn, channelId = id) => (await who.call('channels.getInfo', { channelId })).body.abilities;

    expect((await alice.call('channels.getInfo', { channelId: id })).body).toMatchObject({ id, memberCount: 2 });
    expect(await abilities(alice)).toEqual({ addMembers: true, removeMembers: true, setPurpose: true, rename: true });
    expect(await abilities(bob)).toEqual({ addMembers: false, removeMembers: false, setPurpose: true, rename: false });
    const listed = await alice.call('channels.listMembers', { channelId: id, showPublicProfile: true });
    expect(listed.body.map((m: { userId: string }) => m.userId)).toEqual([alice.user.id, bob.user.id]);
    expect(listed.body[1].publicProfile).toMatchObject({ firstName: 'Bob' });
    // In a public channel a member may add others and a passer-by may not; only moderators remove others.
    const hall = (await create(alice, { name: 'hall', type: 'public' })).body.id;
    await bob.call('channels.join', { channelId: hall });
    expect(await abilities(bob, hall)).toEqual({ addMembers: true, removeMembers: false, setPurpose: true, rename: false });
    expect(await abilities(carla, hall)).toEqual({ addMembers: false, removeMembers: false, setPurpose: false, rename: false });
    // An app's token gets the channel as before, without abilities.
    const { token } = await t().f.install(app.id, carla.user.id);
    const byToken = await http(t().url, 'POST', '/v1/channels.getInfo', { json: { token, channelId: hall } });
    expect(Object.keys(byToken.body).sort()).toEqual(['id', 'memberCount', 'name', 'purpose', 'type']);

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
    expect((await alice.call('channels.getInfo', { channelId: id })).body.memberCount).toBe(1);
  });

  it('lets its members say what a channel is about, heard on the stream; not guests, passers-by, or anyone while it is archived', async () => {
    const { alice, bob, team, person } = await clientCast(t());
    const carla = await person('Carla');
    const gus = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Gus', lastName: 'Guest', role: 'guest' }));
    const admin = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ada', lastName: 'Admin', role: 'admin' }));
    const id = (await create(alice, { name: 'launch', type: 'public', purpose: 'Old news' })).body.id;
    await alice.call('channels.addMembers', { channelId: id, members: [bob.user.id, gus.user.id] });
    const purposeOf = async () => (await alice.call('channels.getInfo', { channelId: id })).body.purpose;

    const set = await bob.call('channels.setPurpose', { channelId: id, purpose: '  Shipping v2 on Friday  ' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.channel).toMatchObject({ id, purpose: 'Shipping v2 on Friday', memberCount: 3 });
    const updated = await t().testStore.store.db.selectFrom('stream_entries').select('payload').where('team_id', '=', team.id).where('type', '=', 'channel.updated').execute();
    expect(updated.map((row) => JSON.parse(row.payload).channel.purpose)).toEqual(['Shipping v2 on Friday']);
    // The same purpose again is no change: nothing more on the stream.
    expect((await bob.call('channels.setPurpose', { channelId: id, purpose: 'Shipping v2 on Friday' })).status).toBe(200);
    expect(await t().testStore.store.db.selectFrom('stream_entries').select('seq').where('team_id', '=', team.id).where('type', '=', 'channel.updated').execute()).toHaveLength(1);

    expectError(await gus.call('channels.setPurpose', { channelId: id, purpose: 'guest was here' }), { status: 403, error: 'PermissionDenied', parameter: 'channelId' });
    expectError(await carla.call('channels.setPurpose', { channelId: id, purpose: 'passer-by' }), { status: 403, error: 'PermissionDenied', parameter: 'channelId' });
    expectError(await bob.call('channels.setPurpose', { channelId: id, purpose: 'x'.repeat(1025) }), { error: 'InvalidParameter', parameter: 'purpose' });
    expect(await purposeOf()).toBe('Shipping v2 on Friday');

    expectError(await bob.call('channels.setPurpose', { purpose: 'where?' }), { error: 'MissingParameter', parameter: 'channelId' });
    // A team admin, in it or not; an empty purpose clears it.
    const cleared = await admin.call('channels.setPurpose', { channelId: id, purpose: '' });
    expect(cleared.body.channel?.purpose, JSON.stringify(cleared.body)).toBe('');
    expect((await admin.call('channels.archive', { channelId: id })).status).toBe(200);
    expectError(await bob.call('channels.setPurpose', { channelId: id, purpose: 'too late' }), { status: 409, error: 'ChannelArchived', parameter: 'channelId' });
    expect((await bob.call('channels.getInfo', { channelId: id })).body.abilities.setPurpose).toBe(false);
  });

  it('lets a channel’s moderator rename it, recorded in the audit log; not its other members, nor while it is archived', async () => {
    const { alice, bob, team } = await clientCast(t());
    const admin = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ada', lastName: 'Admin', role: 'admin' }));
    const id = (await create(alice, { name: 'launch', type: 'public' })).body.id;
    await alice.call('channels.addMembers', { channelId: id, members: [bob.user.id] });

    expectError(await bob.call('channels.rename', { channelId: id, name: 'bobs-room' }), { status: 403, error: 'PermissionDenied', parameter: 'channelId' });
    const renamed = await alice.call('channels.rename', { channelId: id, name: '  launch-v2 ' });
    expect(renamed.body.channel, JSON.stringify(renamed.body)).toMatchObject({ id, name: 'launch-v2' });
    const audit = await t().testStore.store.db.selectFrom('audit_log').select(['action', 'actor_user_id', 'details']).where('target_id', '=', id).execute();
    expect(audit.map((row) => ({ ...row, details: JSON.parse(row.details) }))).toEqual([{ action: 'channel.renamed', actor_user_id: alice.user.id, details: { from: 'launch', to: 'launch-v2' } }]);
    // Archiving stays a team admin's, and so does renaming an archived channel.
    expectError(await alice.call('channels.archive', { channelId: id }), { status: 403, error: 'PermissionDenied' });
    expect((await admin.call('channels.archive', { channelId: id })).status).toBe(200);
    expectError(await alice.call('channels.rename', { channelId: id, name: 'too-late' }), { status: 409, error: 'ChannelArchived', parameter: 'channelId' });
    expect((await admin.call('channels.rename', { channelId: id, name: 'launch-archive' })).body.channel.name).toBe('launch-archive');
  });

  it('refuses bad input naming the parameter', async () => {
    const { alice } = await clientCast(t());
    expectError(await create(alice, { name: '' }), { error: 'MissingParameter', parameter: 'name' });
    expectError(await create(alice, { name: 'x', type: 'secret' }), { error: 'InvalidParameter', parameter: 'type' });
    expectError(await create(alice, { name: 'x'.repeat(256) }), { error: 'InvalidParameter', parameter: 'name' });
    const id = (await create(alice, { name: 'ok' })).body.id;
    expectError(await alice.call('channels.addMembers', { channelId: id, members: [] }), { error: 'MissingParameter', parameter: 'members' });
    expectError(await alice.call('channels.addMembers', { channelId: id }), { error: 'MissingParameter', parameter: 'members' });
    expectError(await alice.call('channels.join', { channelId: 'g:nope' }), { error: 'InvalidParameter', parameter: 'channelId' });
  });
});
