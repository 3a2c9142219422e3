import { describe, expect, it } from 'vitest';
import { CLIENT_ID_WINDOW_MS } from '../../src/core/commands/internal/messageSending.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, roomyRateLimits } from './chat-cast.js';

/** The server's clock: tests move it to cross the 24-hour window of client ids. */
let clock = Date.now();

forEachDialect(
  'chat.sendMessage client ids',
  (t) => {
    const cast = () => chatCast(t());
    const storedWithClientId = async (senderId: string, clientId: string) =>
      t().testStore.store.db.selectFrom('messages').select('uid').where('from_user_id', '=', senderId).where('client_id', '=', clientId).execute();

    describe('a repeated id', () => {
      it('returns the first message’s uid and stores nothing new, whatever the repeat says', async () => {
        const { alice, bob } = await cast();
        const first = await alice.client.chat.sendMessage({ to: bob.id, text: 'Lunch?', id: 'lunch-1' });
        const repeat = await alice.client.chat.sendMessage({ to: bob.id, text: 'Lunch? (retry)', id: 'lunch-1' });
        expect(repeat.uid).toBe(first.uid);
        expect(await storedWithClientId(alice.id, 'lunch-1')).toEqual([{ uid: first.uid }]);
        expect(await bob.client.chat.fetchMessages({ chat: alice.id })).toMatchObject([{ uid: first.uid, id: 'lunch-1', text: 'Lunch?' }]);
      });

      it('answers concurrent repeats with one message', async () => {
        const { alice, bob } = await cast();
        const answers = await Promise.all(Array.from({ length: 30 }, () => alice.client.chat.sendMessage({ to: bob.id, text: 'once', id: 'burst' })));
        expect(new Set(answers.map((answer) => answer.uid)).size).toBe(1);
        expect(await storedWithClientId(alice.id, 'burst')).toHaveLength(1);
      });

      it('counts only from the same sender through the same app', async () => {
        const { alice, bob, f, team } = await cast();
        const fromAlice = await alice.client.chat.sendMessage({ to: bob.id, text: 'a', id: 'shared' });
        const fromBob = await bob.client.chat.sendMessage({ to: alice.id, text: 'b', id: 'shared' });
        const otherApp = await f.app(team.id, alice.id);
        const { token } = await f.install(otherApp.id, alice.id);
        const viaOtherApp = await t().client(token).chat.sendMessage({ to: bob.id, text: 'c', id: 'shared' });
        expect(new Set([fromAlice.uid, fromBob.uid, viaOtherApp.uid]).size).toBe(3);
      });

      it('makes a new message once 24 hours have passed since the first', async () => {
        const { alice, bob } = await cast();
        const first = await alice.client.chat.sendMessage({ to: bob.id, text: 'daily report', id: 'report' });
        clock += CLIENT_ID_WINDOW_MS - 1;
        expect((await alice.client.chat.sendMessage({ to: bob.id, text: 'daily report', id: 'report' })).uid).toBe(first.uid);
        clock += 1;
        const next = await alice.client.chat.sendMessage({ to: bob.id, text: 'daily report', id: 'report' });
        expect(next.uid).not.toBe(first.uid);
        // The window now runs from the new message.
        clock += 1000;
        expect((await alice.client.chat.sendMessage({ to: bob.id, text: 'daily report', id: 'report' })).uid).toBe(next.uid);
        const [newest] = await bob.client.chat.fetchMessages({ chat: alice.id, limit: 1 });
        expect(newest).toMatchObject({ uid: next.uid, timestamp: clock - 1000 });
      });
    });
  },
  roomyRateLimits,
  { now: () => clock },
);
