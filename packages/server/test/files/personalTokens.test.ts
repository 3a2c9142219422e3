import { expect, it } from 'vitest';
import { sessionFor } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, roomyRateLimits } from '../methods/chat-cast.js';
import { download, png, upload } from './upload.js';

/**
 * GET /files/:id with a personal token (Authorization: Bearer as_p_…): it acts as its person, so it
 * downloads what they may see, as their session does, and nothing else.
 */
forEachDialect(
  'a file downloaded with a personal token',
  (t) => {
    async function cast() {
      const cast = await chatCast(t());
      const db = t().testStore.store.db;
      const personalToken = async (id: string) => {
        const session = await sessionFor(t(), await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
        const created = await session.call('personalTokens.create', { name: 'downloads' });
        expect(created.status).toBe(200);
        return { session, token: created.body.token as string, id: created.body.personalToken.id as string };
      };
      return { ...cast, personalToken };
    }

    it('downloads a file a message the person sees carries, its renditions, and a range of it', async () => {
      const { alice, bob, channelId, personalToken } = await cast();
      const bytes = await png(40, 30);
      const { body } = await upload(t(), alice.token, 'plan.png', bytes);
      await alice.client.chat.sendMessage({ to: channelId, text: 'the plan', files: [body.file.id] });
      await t().server.ctx.background.settled();
      const { token } = await personalToken(bob.id);
      const served = await download(t(), token, body.file.url);
      expect(served.status).toBe(200);
      expect(served.bytes.equals(bytes)).toBe(true);
      expect(served.headers.get('content-type')).toBe('image/png');
      const thumbnail = await download(t(), token, body.file.thumbnailUrl);
      expect({ status: thumbnail.status, type: thumbnail.headers.get('content-type') }).toEqual({ status: 200, type: 'image/webp' });
      const part = await download(t(), token, body.file.url, { range: 'bytes=0-3' });
      expect({ status: part.status, bytes: [...part.bytes] }).toEqual({ status: 206, bytes: [...bytes.subarray(0, 4)] });
    });

    it('downloads the person’s own upload before any message carries it', async () => {
      const { alice, personalToken } = await cast();
      const { token } = await personalToken(alice.id);
      const { status, body } = await upload(t(), token, 'notes.txt', 'my notes');
      expect(status).toBe(200);
      const served = await download(t(), token, body.file.url);
      expect({ status: served.status, text: served.bytes.toString() }).toEqual({ status: 200, text: 'my notes' });
    });

    it('refuses what the person does not see, a revoked token, and the token as a parameter', async () => {
      const { alice, bob, carol, olga, channelId, personalToken } = await cast();
      const carried = (await upload(t(), alice.token, 'in-general.txt', 'for the channel')).body.file;
      await alice.client.chat.sendMessage({ to: channelId, text: 'see', files: [carried.id] });
      const unsent = (await upload(t(), alice.token, 'unsent.txt', 'not sent yet')).body.file;
      // Carol is not in the channel; Bob does not see Alice's upload no message carries; Olga is of another team.
      for (const [who, file] of [
        [carol.id, carried],
        [bob.id, unsent],
        [olga.id, carried],
      ] as const) {
        const { token } = await personalToken(who);
        const refused = await download(t(), token, file.url);
        expect(refused.status).toBe(400);
        expect(refused.json()).toMatchObject({ error: 'UnknownFile', parameter: 'id' });
      }
      const bobs = await personalToken(bob.id);
      expect((await download(t(), bobs.token, carried.url)).status).toBe(200);
      expect((await bobs.session.call('personalTokens.revoke', { tokenId: bobs.id })).status).toBe(200);
      const revoked = await download(t(), bobs.token, carried.url);
      expect(revoked.status).toBe(403);
      expect(revoked.json()).toMatchObject({ error: 'InvalidToken' });
      const fresh = await personalToken(bob.id);
      // Never in the query string (it would end up in logs): not a credential there.
      const asParameter = await fetch(`${t().url}${carried.url}?token=${fresh.token}`);
      expect({ status: asParameter.status, body: await asParameter.json() }).toMatchObject({ status: 401, body: { error: 'NotSignedIn' } });
    });
  },
  roomyRateLimits,
);
