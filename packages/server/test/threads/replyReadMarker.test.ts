import { expect, it } from 'vitest';
import { sendMessage } from '../../src/core/commands/sendMessage.js';
import { forEachDialect } from '../helpers/server.js';
import { launchThread } from './launchThread.js';

/**
 * A reply marks its thread read for its sender up to itself, and only forward: a newer reply marked read
 * while this one was committing (PostgreSQL) stays read. The newer marker is written here as that
 * interleaving leaves it.
 */
forEachDialect('a reply’s read marker for its sender', (t) => {
  it('moves forward to the reply, never back', async () => {
    const { ctx, bob, channel, root, first } = await launchThread(t());
    const db = t().testStore.store.db;
    const marker = async () => (await db.selectFrom('thread_follows').select('read_up_to').where('user_id', '=', bob.id).where('parent_uid', '=', root.uid).executeTakeFirstOrThrow()).read_up_to;

    expect(await marker()).toBe(first.uid);
    const later = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ';
    await db.updateTable('thread_follows').set({ read_up_to: later }).where('user_id', '=', bob.id).execute();
    await sendMessage(ctx, { user: bob, appId: null }, { to: channel.id, text: 'Or Monday', threadParent: root.uid });
    expect(await marker()).toBe(later);
  });
});
