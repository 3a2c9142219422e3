import { reactionLimits } from '@aviary/protocol';
import { expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { changeReaction } from '../../src/core/commands/reactions.js';
import { sendMessage } from '../../src/core/commands/sendMessage.js';
import { ApiError } from '../../src/errors.js';
import type { UsersTable } from '../../src/store/schema.js';
import { onPostgres } from '../helpers/pgLocks.js';

/**
 * PostgreSQL: two people add two new emoji to a message one short of its cap of different reactions, at
 * once. Both counted one short before either had committed, and both were stored: one past the cap. Now
 * additions to one message take turns from the count, and the second is refused. The test holds the
 * first at its insert with an uncommitted row of its own (helpers/pgLocks.ts), runs the second, and lets
 * the first go once the second has finished or waits. SQLite's one writer never interleaves them.
 */
onPostgres('two new reactions at once on a message one short of its cap', (suite) => {
  const t = () => suite().t;
  const person = (user: UsersTable) => ({ user, appId: null, kind: 'person' as const });

  it(`keeps the cap of ${reactionLimits.maxDistinctEmoji} different emoji`, async () => {
    const team = await t().f.team();
    const [alice, bob] = [await t().f.person(team.id), await t().f.person(team.id)];
    const { channel } = await createChannel(t().server.ctx, { user: alice, appId: null }, { name: 'launch', type: 'public', members: [bob.id] });
    const { message } = await sendMessage(t().server.ctx, { user: alice, appId: null }, { to: channel.id, text: 'Launch on Friday?' });
    const db = t().testStore.store.db;
    // The message's other reactions, written directly: the cap counts different emoji, whoever added them.
    const taken = [...'😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗😙😚🙂🤗🤩🤔🤨😐😑😶🙄😏😣😥😮🤐😯😪😫🥱😴😌😛😜😝🤤😒😓😔😕🙃🤑😲'];
    expect(taken).toHaveLength(reactionLimits.maxDistinctEmoji - 1);
    await db.insertInto('reactions').values(taken.map((emoji, index) => ({ message_uid: message.uid, emoji, user_id: alice.id, team_id: team.id, created_at: index }))).execute();

    const outcome = await suite().holder.interleave(
      {
        statement: 'insert into reactions (message_uid, emoji, user_id, team_id, created_at) values ($1, $2, $3, $4, 0)',
        params: [message.uid, '🐙', alice.id, team.id],
        waitsAt: /^insert into "reactions"/,
        release: 'rollback',
      },
      () => changeReaction(t().server.ctx, person(alice), { messageUid: message.uid, emoji: '🐙', added: true }),
      () => changeReaction(t().server.ctx, person(bob), { messageUid: message.uid, emoji: '🦑', added: true }),
    );
    expect(outcome.first).toBe('done');
    expect(outcome.second).toBeInstanceOf(ApiError);
    expect(outcome.second).toMatchObject({ code: 'InvalidParameter', context: { parameter: 'emoji' }, message: expect.stringMatching(/50 different reactions/) });
    const emoji = await db.selectFrom('reactions').select('emoji').distinct().where('message_uid', '=', message.uid).execute();
    expect(emoji).toHaveLength(reactionLimits.maxDistinctEmoji);
  });
});
