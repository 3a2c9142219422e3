import { expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { postThroughWebhook } from '../../src/core/webhooks/post.js';
import { createWebhook, revokeWebhook } from '../../src/core/webhooks/webhooks.js';
import { ApiError } from '../../src/errors.js';
import { onPostgres } from '../helpers/pgLocks.js';

/**
 * PostgreSQL: a webhook revoked while a post through it is under way. The post had found the webhook
 * live, and wrote its message after the revocation had answered: a revoked webhook (its URL leaked, say)
 * still put a message in the channel. Now the post's message is kept only with the webhook still live,
 * checked in its transaction. The test holds the post before its message is written (a lock of the
 * messages table from a session of its own: helpers/pgLocks.ts) and revokes the webhook there.
 */
onPostgres('a webhook revoked while a post through it is under way', (suite) => {
  const t = () => suite().t;

  it('keeps no message of the post', async () => {
    const team = await t().f.team();
    const alice = await t().f.person(team.id);
    const ctx = t().server.ctx;
    const { channel } = await createChannel(ctx, { user: alice, appId: null }, { name: 'deploys', type: 'public', members: [] });
    const { row: hook } = await createWebhook(ctx, { user: alice, appId: null }, { channel: channel.id, name: 'CI' });

    const outcome = await suite().holder.interleave(
      { statement: 'lock table messages in share mode', params: [], waitsAt: /^insert into "messages"/ },
      () => postThroughWebhook(ctx, hook, { text: 'Deployed 2.4.0' }),
      () => revokeWebhook(ctx, { user: alice, appId: null }, { webhook: hook.id }),
    );
    expect(outcome.second).toBe('done');
    expect(outcome.first).toBeInstanceOf(ApiError);
    expect(outcome.first).toMatchObject({ code: 'UnknownWebhook' });
    expect(await t().testStore.store.db.selectFrom('messages').select('text').where('chat_key', '=', channel.id).execute()).toEqual([]);
  });
});
