import { expect, it } from 'vitest';
import { changeChannel } from '../../src/core/commands/administerChannels.js';
import { createChannel, removeChannelMembers } from '../../src/core/commands/channels.js';
import { sendMessage } from '../../src/core/commands/sendMessage.js';
import { onPostgres } from '../helpers/pgLocks.js';

/**
 * PostgreSQL: a send while its channel is archived, or while its sender is removed from it. The send read
 * the channel as it was before that change committed (open, the sender a member) and posted into an
 * archived channel, or into a channel its sender had just left. Now a send holds the channel's posting
 * gate shared and the change holds it alone (lockChannelPosting), so the send waits and then reads the
 * change. The test holds the change at its stream entries (a lock of that table from a session of its
 * own: helpers/pgLocks.ts), after its row was written, and sends there.
 */
onPostgres('a send while its channel is closed to its sender', (suite) => {
  const t = () => suite().t;
  const holdAtStream = { statement: 'lock table stream_entries in share mode', params: [], waitsAt: /^insert into stream_entries/ };

  async function scene() {
    const team = await t().f.team();
    const admin = await t().f.person(team.id, { role: 'admin' });
    const bob = await t().f.person(team.id);
    const { channel } = await createChannel(t().server.ctx, { user: admin, appId: null }, { name: 'launch', type: 'public', members: [bob.id] });
    return { admin, bob, channel };
  }
  const sent = (channelId: string) => t().testStore.store.db.selectFrom('messages').select('text').where('chat_key', '=', channelId).execute();

  it('refuses a send that comes while the channel is being archived', async () => {
    const { admin, bob, channel } = await scene();
    const outcome = await suite().holder.interleave(
      holdAtStream,
      () => changeChannel(t().server.ctx, { admin, address: null }, { channelId: channel.id, change: { kind: 'archive' } }),
      () => sendMessage(t().server.ctx, { user: bob, appId: null }, { to: channel.id, text: 'Just in time?' }),
    );
    expect(outcome.first).toBe('done');
    expect(outcome.second).toMatchObject({ code: 'ChannelArchived' });
    expect(await sent(channel.id)).toEqual([]);
  });

  it('refuses a send by a member who is being removed', async () => {
    const { admin, bob, channel } = await scene();
    const outcome = await suite().holder.interleave(
      holdAtStream,
      () => removeChannelMembers(t().server.ctx, { user: admin, appId: null }, { channelId: channel.id, members: [bob.id] }),
      () => sendMessage(t().server.ctx, { user: bob, appId: null }, { to: channel.id, text: 'One last word' }),
    );
    expect(outcome.first).toBe('done');
    expect(outcome.second).toMatchObject({ code: 'UnknownRecipient' });
    expect(await sent(channel.id)).toEqual([]);
  });
});
