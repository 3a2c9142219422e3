import { expect, it } from 'vitest';
import { createChannel, removeChannelMembers } from '../../src/core/commands/channels.js';
import { onPostgres } from '../helpers/pgLocks.js';

/**
 * PostgreSQL: the two moderators of a private channel leave at once. Each saw the other still there as a
 * moderator (the other's leaving not yet committed), so neither made the longest-standing member
 * moderator: the channel was left with members and nobody who may manage it. Now removals from one
 * channel take turns, and the second hands the channel on. The test holds the first leaving at its stream
 * entry, after its check for a moderator (a lock of the stream's table from a session of its own:
 * helpers/pgLocks.ts), and runs the second there.
 */
onPostgres('two moderators leave a channel at once', (suite) => {
  const t = () => suite().t;

  it('hands the channel to the member left', async () => {
    const team = await t().f.team();
    const [ana, ben, cy] = [await t().f.person(team.id), await t().f.person(team.id), await t().f.person(team.id)];
    const ctx = t().server.ctx;
    const { channel } = await createChannel(ctx, { user: ana, appId: null }, { name: 'leads', type: 'private', members: [ben.id, cy.id] });
    await t().testStore.store.db.updateTable('channel_members').set({ affiliation: 'moderator' }).where('channel_id', '=', channel.id).where('user_id', '=', ben.id).execute();
    const leave = (who: typeof ana) => () => removeChannelMembers(ctx, { user: who, appId: null }, { channelId: channel.id, members: [who.id] });

    const outcome = await suite().holder.interleave(
      { statement: 'lock table stream_entries in share mode', params: [], waitsAt: /^insert into stream_entries/ },
      leave(ana),
      leave(ben),
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    const members = await t().testStore.store.db.selectFrom('channel_members').select(['user_id', 'affiliation']).where('channel_id', '=', channel.id).execute();
    expect(members).toEqual([{ user_id: cy.id, affiliation: 'moderator' }]);
  });
});
