import { expect, it } from 'vitest';
import { deleteMessage } from '../../src/core/commands/deleteMessage.js';
import { onPostgres } from '../helpers/pgLocks.js';
import { launchThread } from './launchThread.js';

/**
 * PostgreSQL: a thread's parent and its only reply deleted at once. The parent's deletion saw a reply and
 * kept the parent, emptied ("This message was deleted"); the reply's deletion read the parent as it was
 * before that committed, not deleted, and removed the thread's summary but kept the parent. The parent
 * stayed deleted for good, with no thread, and no one could delete it. Now the reply's deletion holds
 * the parent's row before it reads it, so it waits for the parent's deletion and takes the parent with
 * it. The test holds the parent's deletion at its stream entries (a lock of that table from a session of
 * its own: helpers/pgLocks.ts), after it emptied the parent, and deletes the reply there.
 */
onPostgres('a thread’s parent and its last reply deleted at once', (suite) => {
  const t = () => suite().t;

  it('leaves neither the parent nor its thread behind', async () => {
    const { ctx, alice, bob, root, first: reply } = await launchThread(t());

    const outcome = await suite().holder.interleave(
      { statement: 'lock table stream_entries in share mode', params: [], waitsAt: /^insert into stream_entries/ },
      () => deleteMessage(ctx, { user: alice, appId: null, kind: 'person' }, { messageUid: root.uid }),
      () => deleteMessage(ctx, { user: bob, appId: null, kind: 'person' }, { messageUid: reply.uid }),
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    const db = t().testStore.store.db;
    expect(await db.selectFrom('messages').select('uid').where('uid', 'in', [root.uid, reply.uid]).execute()).toEqual([]);
    expect(await db.selectFrom('threads').select('parent_uid').where('parent_uid', '=', root.uid).execute()).toEqual([]);
  });
});
