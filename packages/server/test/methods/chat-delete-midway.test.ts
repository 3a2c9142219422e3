import { expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { deleteMessage } from '../../src/core/commands/deleteMessage.js';
import { changePin } from '../../src/core/commands/pins.js';
import { changeReaction } from '../../src/core/commands/reactions.js';
import { saveMessage } from '../../src/core/commands/saved.js';
import { sendMessage } from '../../src/core/commands/sendMessage.js';
import { updateMessage } from '../../src/core/commands/updateMessage.js';
import { setChannelMessageRetention } from '../../src/core/commands/retention.js';
import { cliActor } from '../../src/core/audit/record.js';
import { pruneExpiredMessages } from '../../src/core/retention/pruneMessages.js';
import { changeFollow } from '../../src/core/threads/follows.js';
import { ApiError } from '../../src/errors.js';
import type { UsersTable } from '../../src/store/schema.js';
import { onPostgres } from '../helpers/pgLocks.js';

/**
 * PostgreSQL: a message deleted (by chat.deleteMessage, or by the retention pass) while someone replies
 * to it, reacts, pins, saves, follows its thread or edits it. The deletion removes what hangs on the message table by table, then the message; a change
 * that wrote its row after the deletion had passed that table left it behind (a reply nobody could
 * reach, a reaction or pin of nothing, an edit of a deleted message). Now the deletion holds the
 * message's row first, and each change waits for it, then finds the message gone. The test holds the
 * deletion at its last table but one (a follow of the thread, locked by a session of its own:
 * helpers/pgLocks.ts), runs the change, and lets the deletion go once the change has finished or waits
 * on it. SQLite's one writer never interleaves them.
 */
onPostgres('a message deleted while another change of it is under way', (suite) => {
  const t = () => suite().t;
  const holder = () => suite().holder;

  type Change = (cast: { alice: UsersTable; bob: UsersTable; channelId: string; uid: string }) => Promise<unknown>;
  const person = (user: UsersTable) => ({ user, appId: null, kind: 'person' as const });
  const changes: Array<[string, Change]> = [
    ['a reply to it', ({ bob, channelId, uid }) => sendMessage(t().server.ctx, { user: bob, appId: null }, { to: channelId, text: 'On it', threadParent: uid })],
    ['a reaction', ({ bob, uid }) => changeReaction(t().server.ctx, person(bob), { messageUid: uid, emoji: '👍', added: true })],
    ['a pin', ({ bob, uid }) => changePin(t().server.ctx, bob, { messageUid: uid, pinned: true })],
    ['a save', ({ bob, uid }) => saveMessage(t().server.ctx, bob, { messageUid: uid })],
    ['a follow of its thread', ({ bob, uid }) => changeFollow(t().server.ctx, bob, { messageUid: uid, following: true })],
    ['an edit by its author', ({ alice, uid }) => updateMessage(t().server.ctx, person(alice), { messageUid: uid, text: 'Ship it on Friday' })],
  ];

  const DAY_MS = 24 * 60 * 60 * 1000;
  type Deleter = (cast: { alice: UsersTable; channelId: string; uid: string }) => Promise<unknown>;
  const deleters: Array<[string, Deleter]> = [
    ['chat.deleteMessage', ({ alice, uid }) => deleteMessage(t().server.ctx, person(alice), { messageUid: uid })],
    [
      'the retention pass',
      async ({ channelId }) => {
        await setChannelMessageRetention(t().server.ctx, cliActor, { channelId, choice: { keep: 'days', days: 1 } });
        await pruneExpiredMessages(t().server.ctx, Date.now() + 2 * DAY_MS);
      },
    ],
  ];

  for (const [deletedBy, deletion] of deleters) {
    for (const [name, change] of changes) {
      // The retention pass only deletes; an edit of what it deletes is chat.deleteMessage's case alone.
      if (deletedBy === 'the retention pass' && name === 'an edit by its author') continue;
      it(`${deletedBy}, ${name}: waits for the deletion, is refused, and leaves nothing of the message behind`, async () => {
        const team = await t().f.team();
        const [alice, bob, carol] = [await t().f.person(team.id), await t().f.person(team.id), await t().f.person(team.id)];
        const { channel } = await createChannel(t().server.ctx, { user: alice, appId: null }, { name: 'launch', type: 'public', members: [bob.id, carol.id] });
        const { message } = await sendMessage(t().server.ctx, { user: alice, appId: null }, { to: channel.id, text: 'Ship it on Thursday' });
        // Carol's follow is the row the deletion is held at.
        await changeFollow(t().server.ctx, carol, { messageUid: message.uid, following: true });

        const cast = { alice, bob, channelId: channel.id, uid: message.uid };
        const outcome = await holder().interleave(
          { statement: 'select 1 from thread_follows where parent_uid = $1 for update', params: [message.uid], waitsAt: /^delete from "thread_follows"/ },
          () => deletion(cast),
          () => change(cast),
        );
        expect(outcome.first).toBe('done');
        expect(outcome.second).toBeInstanceOf(ApiError);
        expect((outcome.second as ApiError).code).toBe('InvalidParameter');

        const db = t().testStore.store.db;
        const left = {
          messages: await db.selectFrom('messages').select('uid').where((eb) => eb.or([eb('uid', '=', message.uid), eb('thread_parent', '=', message.uid)])).execute(),
          reactions: await db.selectFrom('reactions').select('emoji').where('message_uid', '=', message.uid).execute(),
          pins: await db.selectFrom('pins').select('pinned_by').where('message_uid', '=', message.uid).execute(),
          saved: await db.selectFrom('saved_items').select('user_id').where('message_uid', '=', message.uid).execute(),
          edits: await db.selectFrom('message_edits').select('edited_by').where('message_uid', '=', message.uid).execute(),
          threads: await db.selectFrom('threads').select('reply_count').where('parent_uid', '=', message.uid).execute(),
          follows: await db.selectFrom('thread_follows').select('user_id').where('parent_uid', '=', message.uid).execute(),
        };
        expect(left).toEqual({ messages: [], reactions: [], pins: [], saved: [], edits: [], threads: [], follows: [] });
      });
    }
  }
});
