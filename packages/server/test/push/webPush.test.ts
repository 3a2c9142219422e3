import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { http, sessionFor, type SignedIn } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, roomyRateLimits } from '../methods/chat-cast.js';
import { closeStreams, openStream } from '../stream/harness.js';
import { browserKeys, checkVapid, decryptPush, startPushService } from './pushService.js';

afterEach(closeStreams);

/** Web Push against a real push service on loopback: VAPID, the encrypted payload, who gets one and who not. */
forEachDialect(
  'Web Push',
  (t) => {
    let service: Awaited<ReturnType<typeof startPushService>>;
    beforeAll(async () => {
      service = await startPushService();
    });
    afterAll(() => service.close());

    let subscriptionCount = 0;
    const subscribe = async (who: SignedIn) => {
      const keys = browserKeys();
      const endpoint = `${service.url}/push/${++subscriptionCount}`;
      const answer = await who.call('push.subscribe', { endpoint, keys: keys.json });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return { keys, endpoint, path: new URL(endpoint).pathname };
    };
    /** The pushes a message set off, once the server's background work has settled. */
    const pushesTo = async (path: string) => {
      await t().server.ctx.background.settled();
      return service.received.filter((push) => push.path === path);
    };
    const cast = async () => {
      const c = await chatCast(t());
      const db = t().testStore.store.db;
      const row = (id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return { ...c, db, aliceSession: await sessionFor(t(), await row(c.alice.id)), bobSession: await sessionFor(t(), await row(c.bob.id)), carolSession: await sessionFor(t(), await row(c.carol.id)) };
    };

    it('pushes a direct message to a person with no stream open, signed with the server’s VAPID key and encrypted for their browser', async () => {
      const { alice, bob, bobSession } = await cast();
      const { publicKey } = (await bobSession.call('push.getPublicKey')).body;
      expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
      // The key was made at start and stored: a second ask answers the same one.
      expect((await bobSession.call('push.getPublicKey')).body.publicKey).toBe(publicKey);
      const stored = await t().testStore.store.db.selectFrom('web_push_keys').selectAll().executeTakeFirstOrThrow();
      expect(stored.public_key).toBe(publicKey);
      expect(stored.private_key).toMatch(/^sealed:v1:/);
      const browser = await subscribe(bobSession);
      const { uid } = await alice.client.chat.sendMessage({ to: bob.id, text: 'lunch at one?' });
      const [push, ...more] = await pushesTo(browser.path);
      expect(more).toEqual([]);
      expect(push!.headers['content-encoding']).toBe('aes128gcm');
      expect(Number(push!.headers.ttl)).toBeGreaterThan(0);
      const claims = checkVapid(push!.headers.authorization, browser.endpoint, publicKey);
      expect(claims.exp * 1000).toBeGreaterThan(Date.now());
      expect(claims.sub).toMatch(/^(mailto:|https:)/);
      const alicePerson = await t().testStore.store.db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', alice.id).executeTakeFirstOrThrow();
      expect(JSON.parse(decryptPush(push!.body, browser.keys))).toEqual({
        title: `${alicePerson.first_name} ${alicePerson.last_name}`.trim(),
        body: 'lunch at one?',
        url: `/c/${encodeURIComponent(alice.id)}?m=${uid}`,
        chat: alice.id,
        uid,
      });
    });

    it('pushes channel mentions and @channel, not other channel messages, nor to a muted chat, nor in do-not-disturb', async () => {
      const { alice, bob, channelId, bobSession } = await cast();
      const browser = await subscribe(bobSession);
      await alice.client.chat.sendMessage({ to: channelId, text: 'no mention here' });
      expect(await pushesTo(browser.path)).toHaveLength(0);
      await alice.client.chat.sendMessage({ to: channelId, text: '@Bob review please', mentions: [bob.id] });
      await alice.client.chat.sendMessage({ to: channelId, text: '@channel release' });
      await alice.client.chat.sendMessage({ to: channelId, text: '@here anyone online' });
      const titles = (await pushesTo(browser.path)).map((push) => JSON.parse(decryptPush(push.body, browser.keys)).body);
      // Each message's pushes are sent in the background, so they may reach the push service in either order.
      expect(titles.sort()).toEqual(['@Bob review please', '@channel release']);

      await bobSession.call('notifications.setChatLevel', { chat: channelId, level: 'mute' });
      await alice.client.chat.sendMessage({ to: channelId, text: '@Bob muted', mentions: [bob.id] });
      expect(await pushesTo(browser.path)).toHaveLength(2);
      await bobSession.call('notifications.setChatLevel', { chat: channelId, level: 'mentions' });
      await bobSession.call('notifications.setDoNotDisturb', { pauseHours: 1 });
      await alice.client.chat.sendMessage({ to: bob.id, text: 'while paused' });
      expect(await pushesTo(browser.path)).toHaveLength(2);
      await bobSession.call('notifications.setDoNotDisturb', { pauseHours: 0 });
      await alice.client.chat.sendMessage({ to: bob.id, text: 'after the pause' });
      expect(await pushesTo(browser.path)).toHaveLength(3);
    });

    it('pushes a reply to the people who follow its thread, opening the thread, unless they unfollowed it', async () => {
      const { alice, bob, channelId, aliceSession, bobSession } = await cast();
      const browser = await subscribe(aliceSession);
      const { uid: parent } = await alice.client.chat.sendMessage({ to: channelId, text: 'who takes the release?' });
      const { body: reply } = await bobSession.call('chat.sendMessage', { to: channelId, text: 'I can', threadParent: parent });
      const [push, ...more] = await pushesTo(browser.path);
      expect(more).toEqual([]);
      expect(JSON.parse(decryptPush(push!.body, browser.keys))).toMatchObject({
        body: 'I can',
        url: `/c/${encodeURIComponent(channelId)}?m=${parent}&thread=${parent}`,
        chat: channelId,
        uid: reply.uid,
      });
      // Her own reply pushes nothing to her; once she unfollowed, Bob's next reply neither.
      await aliceSession.call('chat.sendMessage', { to: channelId, text: 'Thanks', threadParent: parent });
      expect((await aliceSession.call('threads.unfollow', { messageUid: parent })).status).toBe(200);
      await bob.client.chat.sendMessage({ to: channelId, text: 'Done', threadParent: parent });
      expect(await pushesTo(browser.path)).toHaveLength(1);
    });

    it('sends nothing to a person with a stream open, and forgets a subscription the push service says is gone', async () => {
      const { alice, carol, carolSession, bob, bobSession } = await cast();
      const online = await subscribe(carolSession);
      await openStream(t(), carolSession);
      // Held now rather than at the next batch, as every process holds its new streams' people within a second.
      await t().server.gateway.presence.holdArrivals();
      await alice.client.chat.sendMessage({ to: carol.id, text: 'you are here' });
      expect(await pushesTo(online.path)).toHaveLength(0);

      const gone = await subscribe(bobSession);
      service.answer.set(gone.path, 410);
      await alice.client.chat.sendMessage({ to: bob.id, text: 'first' });
      expect(await pushesTo(gone.path)).toHaveLength(1);
      const left = await t().testStore.store.db.selectFrom('push_subscriptions').select('endpoint').where('endpoint', '=', gone.endpoint).execute();
      expect(left).toEqual([]);
    });

    it('stops pushing to a browser signed out from elsewhere, and forgets its subscription', async () => {
      const { alice, bob, db } = await cast();
      const bobRow = await db.selectFrom('users').selectAll().where('id', '=', bob.id).executeTakeFirstOrThrow();
      const [laptop, phone] = [await sessionFor(t(), bobRow), await sessionFor(t(), bobRow)];
      const [onLaptop, onPhone] = [await subscribe(laptop), await subscribe(phone)];
      await alice.client.chat.sendMessage({ to: bob.id, text: 'before' });
      expect([(await pushesTo(onLaptop.path)).length, (await pushesTo(onPhone.path)).length]).toEqual([1, 1]);

      // The laptop is lost: Bob signs out everywhere else from his phone.
      expect((await phone.call('sessions.revoke', { all: true, exceptCurrent: true })).status).toBe(200);
      await alice.client.chat.sendMessage({ to: bob.id, text: 'after' });
      const onPhoneAfter = await pushesTo(onPhone.path);
      expect(onPhoneAfter.map((push) => JSON.parse(decryptPush(push.body, onPhone.keys)).body)).toEqual(['before', 'after']);
      expect(await pushesTo(onLaptop.path)).toHaveLength(1);
      expect(await db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', bob.id).execute()).toEqual([{ endpoint: onPhone.endpoint }]);
    });

    it('pushes to a subscription made with a personal token until the token is revoked', async () => {
      const { alice, bob, bobSession, db } = await cast();
      const made = (await bobSession.call('personalTokens.create', { name: 'pager' })).body;
      const script: SignedIn = { ...bobSession, sessionToken: made.token, call: (method, params = {}) => http(t().url, 'POST', `/v1/${method}`, { json: params, headers: { authorization: `Bearer ${made.token}` } }) };
      const pager = await subscribe(script);
      await alice.client.chat.sendMessage({ to: bob.id, text: 'paged' });
      expect(await pushesTo(pager.path)).toHaveLength(1);
      expect((await bobSession.call('personalTokens.revoke', { tokenId: made.personalToken.id })).status).toBe(200);
      await alice.client.chat.sendMessage({ to: bob.id, text: 'not paged' });
      expect(await pushesTo(pager.path)).toHaveLength(1);
      expect(await db.selectFrom('push_subscriptions').select('endpoint').where('endpoint', '=', pager.endpoint).execute()).toEqual([]);
    });

    it('takes only well-formed subscriptions, and lets a person unsubscribe only their own', async () => {
      const { bobSession, carolSession } = await cast();
      const keys = browserKeys().json;
      const refusals = [
        [{ endpoint: 'ftp://push.example/x', keys }, 'endpoint'],
        [{ endpoint: `${service.url}/x`, keys: { ...keys, p256dh: 'short' } }, 'keys.p256dh'],
        [{ endpoint: `${service.url}/x`, keys: { ...keys, auth: 'not base64url!' } }, 'keys.auth'],
        [{ endpoint: `${service.url}/x` }, 'keys'],
      ] as const;
      for (const [params, parameter] of refusals) {
        const refused = await bobSession.call('push.subscribe', params);
        expect(refused.status, JSON.stringify(refused.body)).toBe(400);
        expect(refused.body.parameter).toBe(parameter);
      }
      const mine = await subscribe(bobSession);
      expect((await carolSession.call('push.unsubscribe', { endpoint: mine.endpoint })).body).toEqual({ endpoint: mine.endpoint });
      const db = t().testStore.store.db;
      expect(await db.selectFrom('push_subscriptions').select('user_id').where('endpoint', '=', mine.endpoint).execute()).toEqual([{ user_id: bobSession.user.id }]);
      await bobSession.call('push.unsubscribe', { endpoint: mine.endpoint });
      expect(await db.selectFrom('push_subscriptions').select('user_id').where('endpoint', '=', mine.endpoint).execute()).toEqual([]);
    });
  },
  roomyRateLimits,
);
