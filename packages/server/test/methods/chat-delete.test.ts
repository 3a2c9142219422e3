import { describe, expect, it } from 'vitest';
import { sessionFor } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, expectApiError, roomyRateLimits } from './chat-cast.js';

/**
 * chat.deleteMessage (an Aviary extension), the team's edit window for edits and deletes, and the
 * history of edits team admins read (chat.listMessageEdits).
 */
forEachDialect(
  'chat.deleteMessage and the edit window',
  (t) => {
    const cast = async () => {
      const c = await chatCast(t());
      const db = t().testStore.store.db;
      const row = (id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const admin = await t().f.person(c.team.id, { firstName: 'Ada', lastName: 'Admin', role: 'admin' });
      await db.insertInto('channel_members').values({ channel_id: c.channelId, user_id: admin.id, affiliation: 'member', joined_at: Date.now() }).execute();
      return {
        ...c,
        db,
        aliceSession: await sessionFor(t(), await row(c.alice.id)),
        bobSession: await sessionFor(t(), await row(c.bob.id)),
        adminSession: await sessionFor(t(), admin),
        /** Moves a message back in time, as if sent `minutes` ago. */
        age: (uid: string, minutes: number) => db.updateTable('messages').set({ timestamp: Date.now() - minutes * 60_000 }).where('uid', '=', uid).execute(),
      };
    };

    describe('who deletes', () => {
      it('lets a person delete their own message: it leaves the history, and search no longer finds it', async () => {
        const { aliceSession, bob, channelId } = await cast();
        const sent = await aliceSession.call('chat.sendMessage', { to: channelId, text: 'a zanzibarian typo' });
        expect((await bob.client.search.messages({ query: 'zanzibarian' })).matches).toHaveLength(1);
        const deleted = await aliceSession.call('chat.deleteMessage', { messageUid: sent.body.uid });
        expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
        expect(deleted.body).toEqual({ uid: sent.body.uid, deletedAt: expect.any(Number) });
        expect(await bob.client.chat.fetchMessages({ chat: channelId, uids: [sent.body.uid] })).toEqual([]);
        expect((await bob.client.search.messages({ query: 'zanzibarian' })).matches).toEqual([]);
        // Gone: deleting it again is the "no such message" of any unknown uid.
        const again = await aliceSession.call('chat.deleteMessage', { messageUid: sent.body.uid });
        expect(again.body).toMatchObject({ error: 'InvalidParameter', parameter: 'messageUid' });
      });

      it('lets an app’s token delete what its user or bot sent through it, and no other', async () => {
        const { alice, bob, bot, channelId } = await cast();
        const own = await alice.client.chat.sendMessage({ to: channelId, text: 'through the app' });
        const botSent = await bot.client.chat.sendMessage({ to: alice.id, text: 'from the bot' });
        await alice.client.chat.deleteMessage({ messageUid: own.uid });
        await bot.client.chat.deleteMessage({ messageUid: botSent.uid });
        const bobs = await bob.client.chat.sendMessage({ to: channelId, text: 'bob’s' });
        await expectApiError(alice.client.chat.deleteMessage({ messageUid: bobs.uid }), { error: 'PermissionDenied', status: 403, parameter: 'messageUid' });
        expect(await alice.client.chat.fetchMessages({ chat: channelId, uids: [own.uid, bobs.uid] })).toMatchObject([{ uid: bobs.uid }]);
      });

      it('lets a team admin delete anyone’s message they can see, and refuses a member who did not send it', async () => {
        const { alice, bobSession, adminSession, channelId } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'spam' });
        const refused = await bobSession.call('chat.deleteMessage', { messageUid: uid });
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ error: 'PermissionDenied', parameter: 'messageUid' });
        expect((await adminSession.call('chat.deleteMessage', { messageUid: uid })).status).toBe(200);
        expect(await alice.client.chat.fetchMessages({ chat: channelId, uids: [uid] })).toEqual([]);
      });

      it('answers a non-member and another team as it answers an unknown uid', async () => {
        const { alice, dave, olga, f, team, channelId } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'members only' });
        const daveToken = t().client((await f.install((await f.app(team.id, dave.id)).id, dave.id)).token);
        for (const client of [daveToken, olga.client]) {
          await expectApiError(client.chat.deleteMessage({ messageUid: uid }), { error: 'InvalidParameter', parameter: 'messageUid', description: /no message .* that you can see/ });
        }
      });
    });

    describe('the edit window', () => {
      it('holds people to it for edits and deletes, not team admins; 0 lifts it', async () => {
        const { aliceSession, adminSession, bobSession, channelId, age } = await cast();
        const set = await adminSession.call('team.updateSettings', { messageEditWindowMinutes: 15 });
        expect(set.body.team).toMatchObject({ messageEditWindowMinutes: 15 });
        expect((await bobSession.call('team.updateSettings', { messageEditWindowMinutes: 0 })).status).toBe(403);
        const old = await aliceSession.call('chat.sendMessage', { to: channelId, text: 'an hour ago' });
        const recent = await aliceSession.call('chat.sendMessage', { to: channelId, text: 'just now' });
        await age(old.body.uid, 60);
        for (const [method, extra] of [['chat.updateMessage', { text: 'late' }], ['chat.deleteMessage', {}]] as const) {
          const late = await aliceSession.call(method, { messageUid: old.body.uid, ...extra });
          expect(late.status).toBe(403);
          expect(late.body).toMatchObject({ error: 'PermissionDenied', parameter: 'messageUid' });
          expect(late.body.description).toMatch(/more than 15 minutes ago/);
        }
        expect((await aliceSession.call('chat.updateMessage', { messageUid: recent.body.uid, text: 'just now!' })).status).toBe(200);
        expect((await adminSession.call('chat.deleteMessage', { messageUid: old.body.uid })).status).toBe(200);

        expect((await adminSession.call('team.updateSettings', { messageEditWindowMinutes: 0 })).body.team.messageEditWindowMinutes).toBe(0);
        await age(recent.body.uid, 60 * 24);
        expect((await aliceSession.call('chat.deleteMessage', { messageUid: recent.body.uid })).status).toBe(200);
      });

      it('refuses a window that is not a whole number of minutes within a year, and a call that changes nothing', async () => {
        const { adminSession } = await cast();
        for (const value of [-1, 1.5, 525_601, 'soon']) {
          const refused = await adminSession.call('team.updateSettings', { messageEditWindowMinutes: value });
          expect(refused.status, String(value)).toBe(400);
          expect(refused.body).toMatchObject({ error: 'InvalidParameter', parameter: 'messageEditWindowMinutes' });
        }
        expect((await adminSession.call('team.updateSettings', {})).body).toMatchObject({ error: 'MissingParameter' });
        expect((await adminSession.call('team.getInfo', {})).body.team.messageEditWindowMinutes).toBe(0);
      });
    });

    describe('the history of edits', () => {
      it('keeps what a message said before each edit, for team admins only', async () => {
        const { aliceSession, adminSession, bobSession, channelId } = await cast();
        const { body: sent } = await aliceSession.call('chat.sendMessage', { to: channelId, text: 'v1' });
        await aliceSession.call('chat.updateMessage', { messageUid: sent.uid, text: 'v2' });
        await aliceSession.call('chat.updateMessage', { messageUid: sent.uid, text: 'v3' });
        const history = await adminSession.call('chat.listMessageEdits', { messageUid: sent.uid });
        expect(history.body).toEqual({
          uid: sent.uid,
          edits: [
            { editedAt: expect.any(Number), editedBy: aliceSession.user.id, previousText: 'v1' },
            { editedAt: expect.any(Number), editedBy: aliceSession.user.id, previousText: 'v2' },
          ],
        });
        const refused = await bobSession.call('chat.listMessageEdits', { messageUid: sent.uid });
        expect(refused.status).toBe(403);
        expect(refused.body.error).toBe('PermissionDenied');
      });
    });
  },
  roomyRateLimits,
);
