import { pinLimits } from '@aviary/protocol';
import { expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { changePin } from '../../src/core/commands/pins.js';
import { sendMessage } from '../../src/core/commands/sendMessage.js';
import { ApiError } from '../../src/errors.js';
import { onPostgres } from '../helpers/pgLocks.js';

/**
 * PostgreSQL: two people pin the same message at once. Both see it unpinned before either has committed
 * its pin; the second's insert then met the first's row and answered 500. Now it answers the first's pin,
 * and only one pin.added goes out; likewise two unpins send one pin.removed. The test holds both changes
 * at their write with a lock of its own (an uncommitted pin, rolled back; a lock of the pin's row) until
 * both wait there (helpers/pgLocks.ts); then one wins. Likewise two pins of different messages at once,
 * with the chat one short of its cap: both counted one short and both were stored, one past the cap; now
 * the chat's pins take turns from the count, and the second is refused.
 */
onPostgres('pins by two people at once', (suite) => {
  const t = () => suite().t;
  const holder = () => suite().holder;

  async function scene() {
    const team = await t().f.team();
    const [alice, bob] = [await t().f.person(team.id), await t().f.person(team.id)];
    const { channel } = await createChannel(t().server.ctx, { user: alice, appId: null }, { name: 'launch', type: 'public', members: [bob.id] });
    const { message } = await sendMessage(t().server.ctx, { user: alice, appId: null }, { to: channel.id, text: 'The launch checklist' });
    const pinFrames = () => t().testStore.store.db.selectFrom('stream_entries').select('type').where('team_id', '=', team.id).where('type', 'like', 'pin.%').orderBy('seq').execute();
    return { team, alice, bob, channel, message, pinFrames };
  }

  it('keeps one pin, answers both with it, and sends one pin.added', async () => {
    const { team, alice, bob, channel, message, pinFrames } = await scene();
    const answers: unknown[] = [];
    const pin = (user: typeof alice) => async () => answers.push(await changePin(t().server.ctx, user, { messageUid: message.uid, pinned: true }));

    const outcome = await holder().interleave(
      {
        statement: 'insert into pins (message_uid, chat_key, team_id, pinned_by, pinned_at) values ($1, $2, $3, $4, 0)',
        params: [message.uid, channel.id, team.id, alice.id],
        waitsAt: /^insert into "pins"/,
        release: 'rollback',
      },
      pin(alice),
      pin(bob),
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    const pins = await t().testStore.store.db.selectFrom('pins').select(['pinned_by', 'pinned_at']).where('message_uid', '=', message.uid).execute();
    expect(pins).toHaveLength(1);
    expect(answers).toEqual([
      { by: pins[0]!.pinned_by, at: Number(pins[0]!.pinned_at) },
      { by: pins[0]!.pinned_by, at: Number(pins[0]!.pinned_at) },
    ]);
    expect(await pinFrames()).toEqual([{ type: 'pin.added' }]);
  });

  it('unpinned by both at once: one pin.removed', async () => {
    const { alice, bob, message, pinFrames } = await scene();
    await changePin(t().server.ctx, alice, { messageUid: message.uid, pinned: true });
    const unpin = (user: typeof alice) => () => changePin(t().server.ctx, user, { messageUid: message.uid, pinned: false });
    const outcome = await holder().interleave(
      { statement: 'select 1 from pins where message_uid = $1 for update', params: [message.uid], waitsAt: /^delete from "pins"/ },
      unpin(alice),
      unpin(bob),
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    expect(await pinFrames()).toEqual([{ type: 'pin.added' }, { type: 'pin.removed' }]);
  });

  it(`keeps the cap of ${pinLimits.maxPinsPerChat} pins when the last two are pinned at once`, async () => {
    const { team, alice, bob, channel, message } = await scene();
    const { message: other } = await sendMessage(t().server.ctx, { user: bob, appId: null }, { to: channel.id, text: 'The rollback plan' });
    // The chat's other pins, written directly: the cap counts rows, whoever made them.
    const rows = Array.from({ length: pinLimits.maxPinsPerChat - 1 }, (_, index) => ({
      message_uid: `FAKE${String(index).padStart(22, '0')}`, chat_key: channel.id, team_id: team.id, pinned_by: alice.id, pinned_at: index,
    }));
    await t().testStore.store.db.insertInto('pins').values(rows).execute();
    const outcome = await holder().interleave(
      {
        statement: 'insert into pins (message_uid, chat_key, team_id, pinned_by, pinned_at) values ($1, $2, $3, $4, 0)',
        params: [message.uid, channel.id, team.id, alice.id],
        waitsAt: /^insert into "pins"/,
        release: 'rollback',
      },
      () => changePin(t().server.ctx, alice, { messageUid: message.uid, pinned: true }),
      () => changePin(t().server.ctx, bob, { messageUid: other.uid, pinned: true }),
    );
    expect(outcome.first).toBe('done');
    expect(outcome.second).toBeInstanceOf(ApiError);
    expect(outcome.second).toMatchObject({ code: 'InvalidParameter', context: { parameter: 'messageUid' }, message: expect.stringMatching(/100 pinned messages/) });
    const { count } = await t().testStore.store.db.selectFrom('pins').select((eb) => eb.fn.countAll().as('count')).where('chat_key', '=', channel.id).executeTakeFirstOrThrow();
    expect(Number(count)).toBe(pinLimits.maxPinsPerChat);
  });
});
