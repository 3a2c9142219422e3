import { StreamFrame, type StreamDataFrame } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { afterEach, expect, it } from 'vitest';
import { png, upload } from '../files/upload.js';
import { forEachDialect } from '../helpers/server.js';
import { closeStreams, fence, openStream } from '../stream/harness.js';
import { expectError, sessionFor } from './harness.js';

afterEach(closeStreams);

type TeamFrame = Extract<StreamDataFrame, { type: 'team.updated' }>;
const teamFrames = (frames: StreamDataFrame[]) => frames.filter((frame): frame is TeamFrame => frame.type === 'team.updated');

/** team.updated: a team admin's change of the team's name, settings or icon reaches everyone in the team at once. */
forEachDialect('client API: the team changed', (t) => {
  const cast = async () => {
    const team = await t().f.team('Northwind');
    const admin = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ada', role: 'admin' }));
    const ben = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ben' }));
    const outsider = await sessionFor(t(), await t().f.person((await t().f.team('Elsewhere')).id, { firstName: 'Oz' }));
    return { team, admin, ben, outsider };
  };

  it('reaches every stream of the team with the team as team.getInfo answers it, after each kind of change; another team hears nothing', async () => {
    const { team, admin, ben, outsider } = await cast();
    const streams = await Promise.all([admin, ben, outsider].map((who) => openStream(t(), who)));

    expect((await admin.call('team.updateSettings', { name: 'Northwind Traders', whoMayInvite: 'members' })).status).toBe(200);
    expect((await admin.call('team.updateMentionSettings', { broadcastMentionLimit: 50 })).status).toBe(200);
    const file = (await upload(t(), admin.sessionToken, 'icon.png', await png())).body.file.id as string;
    const set = await admin.call('team.setIcon', { file });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const icon = (set.body as { team: { icon: string } }).team.icon;
    expect((await admin.call('team.removeIcon')).status).toBe(200);
    await fence(t(), team.id, admin.user.id, streams.slice(0, 2));

    const now = (await ben.call('team.getInfo')).body as { team: object };
    for (const stream of streams.slice(0, 2)) {
      const frames = teamFrames(stream.data());
      for (const frame of frames) expect(Value.Check(StreamFrame, frame), JSON.stringify(frame)).toBe(true);
      expect(frames.map((frame) => [frame.team.name, frame.team.whoMayInvite, frame.team.broadcastMentionLimit, frame.team.icon])).toEqual([
        ['Northwind Traders', 'members', 0, undefined],
        ['Northwind Traders', 'members', 50, undefined],
        ['Northwind Traders', 'members', 50, icon],
        ['Northwind Traders', 'members', 50, undefined],
      ]);
      expect(frames.at(-1)!.team).toEqual(now.team);
    }
    expect(teamFrames(streams[2]!.data())).toEqual([]);
  });

  it('a change refused to a member writes no team.updated', async () => {
    const { team, ben } = await cast();
    expectError(await ben.call('team.updateSettings', { name: 'Benland' }), { status: 403, error: 'PermissionDenied' });
    expectError(await ben.call('team.removeIcon'), { status: 403, error: 'PermissionDenied' });
    const entries = await t().testStore.store.db.selectFrom('stream_entries').select('type').where('team_id', '=', team.id).where('type', '=', 'team.updated').execute();
    expect(entries).toEqual([]);
  });
});
