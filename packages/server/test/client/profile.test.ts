import { StreamFrame } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { afterEach, expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { closeStreams, fence, openStream, streamCast } from '../stream/harness.js';
import { expectError, http, sessionFor } from './harness.js';

afterEach(closeStreams);

forEachDialect('client API: a person’s profile', (t) => {
  const patch = (sessionToken: string, json: unknown) => http(t().url, 'POST', '/v1/users.updateProfile', { json, headers: { authorization: `Bearer ${sessionToken}` } });

  it('a new name reaches every stream of the team as user.updated, in the change’s transaction; another team hears nothing', async () => {
    const { team, people } = await streamCast(t(), ['Ann', 'Ben']);
    const [ann, ben] = people;
    const outsider = await sessionFor(t(), await t().f.person((await t().f.team()).id, { firstName: 'Oz', lastName: 'Outside' }));
    const streams = await Promise.all([ann, ben, outsider].map((who) => openStream(t(), who)));

    const changed = await patch(ann.sessionToken, { firstName: 'Annabel', timezone: '+05:30' });
    expect(changed.status).toBe(200);
    expect(changed.body.user).toMatchObject({ firstName: 'Annabel', timezone: '+05:30', timeZone: 'Asia/Kolkata' });
    await fence(t(), team.id, ann.user.id, streams.slice(0, 2));

    for (const stream of streams.slice(0, 2)) {
      const updates = stream.data().filter((frame) => frame.type === 'user.updated');
      // The public profile only: a person's timezone is theirs (users.getInfo), not the team's.
      expect(updates.map((frame) => frame.type === 'user.updated' && frame.user)).toEqual([{ id: ann.user.id, firstName: 'Annabel', lastName: 'Streamer' }]);
      for (const frame of updates) expect(Value.Check(StreamFrame, frame), JSON.stringify(frame)).toBe(true);
    }
    expect(streams[2]!.data().some((frame) => frame.type === 'user.updated')).toBe(false);
    // Ben's roster and the store say the same.
    expect((await ben.call('roster.listContacts')).body).toContainEqual(expect.objectContaining({ id: ann.user.id, firstName: 'Annabel' }));
  });

  it('refuses bad input naming the parameter, and a refused change writes nothing to the stream', async () => {
    const { team, people } = await streamCast(t(), ['Ann']);
    const [ann] = people;
    const entries = () => t().testStore.store.db.selectFrom('stream_entries').select('type').where('team_id', '=', team.id).where('type', '=', 'user.updated').execute();
    expectError(await patch(ann.sessionToken, { timezone: 'Mars/Olympus_Mons' }), { error: 'InvalidParameter', parameter: 'timezone', description: /IANA time zone such as Europe\/Paris/ });
    expectError(await patch(ann.sessionToken, { timezone: '+25:00' }), { error: 'InvalidParameter', parameter: 'timezone' });
    expectError(await patch(ann.sessionToken, { firstName: '   ' }), { error: 'MissingParameter', parameter: 'firstName' });
    expectError(await patch(ann.sessionToken, { lastName: 'x'.repeat(10_000) }), { error: 'InvalidParameter', parameter: 'lastName' });
    expectError(await patch(ann.sessionToken, { role: 'admin' }), { error: 'InvalidParameter', parameter: 'role' });
    expectError(await http(t().url, 'POST', '/v1/users.updateProfile', { json: { firstName: 'Mallory' } }), { status: 401, error: 'NotSignedIn' });
    // Nothing to change: the person as they are, and nobody is told.
    expect((await patch(ann.sessionToken, {})).body.user).toMatchObject({ firstName: 'Ann' });
    expect(await entries()).toEqual([]);
  });
});
