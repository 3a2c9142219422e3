import { expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { MAX_PENDING, scheduleMessage } from '../../src/core/scheduled/scheduledMessages.js';
import { createWebhook, MAX_WEBHOOKS_PER_CHANNEL } from '../../src/core/webhooks/webhooks.js';
import { ApiError } from '../../src/errors.js';
import { onPostgres } from '../helpers/pgLocks.js';

/**
 * PostgreSQL: the caps counted before the insert they limit, met by two requests at once one short of
 * the cap: a person's pending scheduled messages (chat.scheduleMessage) and a channel's live webhooks
 * (webhooks.create). Both counted one short before either had committed, and both were stored. Now each
 * takes turns from its count (`lockName`), and the second is refused. The test holds the first at its
 * insert with an uncommitted row of its own (helpers/pgLocks.ts). Pins and reactions have their own
 * files (pins-at-once, reactions-at-once). SQLite's one writer never interleaves them.
 */
onPostgres('caps met by two requests at once', (suite) => {
  const t = () => suite().t;
  const db = () => t().testStore.store.db;
  const HOUR = 3_600_000;

  async function scene() {
    const team = await t().f.team();
    const alice = await t().f.person(team.id);
    const { channel } = await createChannel(t().server.ctx, { user: alice, appId: null }, { name: 'launch', type: 'public', members: [] });
    return { team, alice, channel };
  }

  /** The outcome of two at once: the first stored, the second refused on `parameter`. */
  function expectSecondRefused(outcome: { first: unknown; second: unknown }, parameter: string, description: RegExp) {
    expect(outcome.first).toBe('done');
    expect(outcome.second).toBeInstanceOf(ApiError);
    expect(outcome.second).toMatchObject({ code: 'InvalidParameter', context: { parameter }, message: expect.stringMatching(description) });
  }

  it(`keeps a person's cap of ${MAX_PENDING} pending scheduled messages`, async () => {
    const { team, alice, channel } = await scene();
    const sendAt = t().server.ctx.now() + HOUR;
    const row = (id: string) => ({
      id, team_id: team.id, sender_user_id: alice.id, app_id: null, to_id: channel.id, params: JSON.stringify({ to: channel.id, text: 'Later' }),
      send_at: sendAt, status: 'pending' as const, message_uid: null, error_code: null, error_description: null, created_at: 0, finished_at: null,
    });
    await db().insertInto('scheduled_messages').values(Array.from({ length: MAX_PENDING - 1 }, (_, index) => row(`sm_seeded_${index}`))).execute();
    const schedule = (text: string) => () => scheduleMessage(t().server.ctx, { user: alice, appId: null }, { to: channel.id, text, sendAt });

    const outcome = await suite().holder.interleave(
      { statement: 'lock table scheduled_messages in share mode', params: [], waitsAt: /^insert into "scheduled_messages"/ },
      schedule('First of two'),
      schedule('Second of two'),
    );
    expectSecondRefused(outcome, 'sendAt', /1000 scheduled messages waiting/);
    const { count } = await db().selectFrom('scheduled_messages').select((eb) => eb.fn.countAll().as('count')).where('sender_user_id', '=', alice.id).executeTakeFirstOrThrow();
    expect(Number(count)).toBe(MAX_PENDING);
  });

  it(`keeps a channel's cap of ${MAX_WEBHOOKS_PER_CHANNEL} live webhooks`, async () => {
    const { team, alice, channel } = await scene();
    const row = (id: string) => ({
      id, team_id: team.id, channel_id: channel.id, owner_user_id: alice.id, app_id: null, on_behalf_of: null, name: 'Seeded', icon_url: null,
      secret_hash: id, created_at: 0, last_used_at: null, revoked_at: null,
    });
    await db().insertInto('webhooks').values(Array.from({ length: MAX_WEBHOOKS_PER_CHANNEL - 1 }, (_, index) => row(`wh_seeded_${index}`))).execute();
    const create = (name: string) => () => createWebhook(t().server.ctx, { user: alice, appId: null }, { channel: channel.id, name });

    const outcome = await suite().holder.interleave(
      { statement: 'lock table webhooks in share mode', params: [], waitsAt: /^insert into "webhooks"/ },
      create('Deploys'),
      create('Alerts'),
    );
    expectSecondRefused(outcome, 'channel', /100 webhooks already/);
    const { count } = await db().selectFrom('webhooks').select((eb) => eb.fn.countAll().as('count')).where('channel_id', '=', channel.id).executeTakeFirstOrThrow();
    expect(Number(count)).toBe(MAX_WEBHOOKS_PER_CHANNEL);
  });
});
