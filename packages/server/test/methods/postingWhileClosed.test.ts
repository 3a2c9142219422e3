import { expect, it } from 'vitest';
import { changeChannel } from '../../src/core/commands/administerChannels.js';
import { createChannel, removeChannelMembers } from '../../src/core/commands/channels.js';
import { deleteMessage } from '../../src/core/commands/deleteMessage.js';
import { changePin } from '../../src/core/commands/pins.js';
import { changeReaction } from '../../src/core/commands/reactions.js';
import { sendMessage } from '../../src/core/commands/sendMessage.js';
import { updateMessage } from '../../src/core/commands/updateMessage.js';
import { onPostgres } from '../helpers/pgLocks.js';

/**
 * PostgreSQL: a send while its channel is archived, or while its sender is removed from it. The send read
 * the channel as it was before that change committed (open, the sender a member) and posted into an
 * archived channel, or into a channel its sender had just left. Now a send holds the channel's posting
 * gate shared and the change holds it alone (lockChannelPosting), so the send waits and then reads the
 * change. Reactions, pins, edits and deletions take the gate the same way (lockMessageChange). The test
 * holds the change at its stream entries (a lock of that table from a session of its own:
 * helpers/pgLocks.ts), after its row was written, and sends (or changes a message) there.
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

  it('refuses a reaction, a pin, an edit or a deletion that comes while the channel is being archived', async () => {
    const { admin, bob, channel } = await scene();
    const { message } = await sendMessage(t().server.ctx, { user: bob, appId: null }, { to: channel.id, text: 'Before the archive' });
    const bobAsPerson = { user: bob, appId: null, kind: 'person' as const };
    const changes = [
      () => changeReaction(t().server.ctx, bobAsPerson, { messageUid: message.uid, emoji: '👍', added: true }),
      () => changePin(t().server.ctx, bob, { messageUid: message.uid, pinned: true }),
      () => updateMessage(t().server.ctx, bobAsPerson, { messageUid: message.uid, text: 'Edited after all' }),
      () => deleteMessage(t().server.ctx, bobAsPerson, { messageUid: message.uid }),
    ];
    for (const [index, change] of changes.entries()) {
      const outcome = await suite().holder.interleave(
        holdAtStream,
        () => changeChannel(t().server.ctx, { admin, address: null }, { channelId: channel.id, change: { kind: 'archive' } }),
        change,
      );
      expect(outcome.first).toBe('done');
      expect(outcome.second, `change ${index}`).toMatchObject({ code: 'ChannelArchived' });
      await changeChannel(t().server.ctx, { admin, address: null }, { channelId: channel.id, change: { kind: 'unarchive' } });
    }
    const db = t().testStore.store.db;
    expect(await db.selectFrom('messages').select(['text', 'deleted_at']).where('uid', '=', message.uid).executeTakeFirst()).toEqual({ text: 'Before the archive', deleted_at: null });
    expect(await db.selectFrom('reactions').select('emoji').where('message_uid', '=', message.uid).execute()).toEqual([]);
    expect(await db.selectFrom('pins').select('message_uid').where('message_uid', '=', message.uid).execute()).toEqual([]);
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
