import { listenPath } from '@aviary/protocol';
import { afterEach, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { deleteApp, rotateAppSecret } from '../../src/core/commands/apps.js';
import { deactivatePerson } from '../../src/core/commands/people.js';
import { http } from '../client/harness.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { closeStreams, messageWithText, openStream, streamCast } from './harness.js';
import { cliActor } from '../../src/core/audit/record.js';

/**
 * Signing out, deactivation, a rotated secret and a deleted app close what depended on them at once,
 * through the credentials notice: the sweep that would also find them is an hour away here.
 */
afterEach(closeStreams);
const listens = new Set<WebSocket>();
afterEach(() => {
  for (const socket of listens) socket.terminate();
  listens.clear();
});

/** A listen connection opened by hand, and how it closed. */
async function openListen(t: TestServer, appId: string, credential: string) {
  const socket = new WebSocket(new URL(listenPath(appId), t.url.replace(/^http/, 'ws')), { headers: { authorization: `Bearer ${credential}` } });
  listens.add(socket);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, closed };
}

const signOut = (t: TestServer, sessionToken: string) => http(t.url, 'DELETE', '/api/session', { headers: { authorization: `Bearer ${sessionToken}` } });

forEachDialect(
  'credentials that end close what depends on them at once',
  (t) => {
    it('signing out closes that session’s streams (1008), and only those', async () => {
      const { people } = await streamCast(t(), ['Ann', 'Ben']);
      const [ann, ben] = people;
      const [annStream, annOtherTab, benStream] = [await openStream(t(), ann), await openStream(t(), ann), await openStream(t(), ben)];
      expect((await signOut(t(), ann.sessionToken)).status).toBe(200);
      expect(await annStream.closed).toMatchObject({ code: 1008 });
      expect(await annOtherTab.closed).toMatchObject({ code: 1008 });
      expect((await ben.call('chat.sendFromComposer', { to: ben.user.id, text: 'ben is still here' })).status).toBe(200);
      await benStream.waitFor(messageWithText('ben is still here'));
    });

    it('deactivating a person closes every stream of theirs', async () => {
      const { people } = await streamCast(t(), ['Ann', 'Ben']);
      const [ann, ben] = people;
      const [annStream, benStream] = [await openStream(t(), ann), await openStream(t(), ben)];
      await deactivatePerson(t().server.ctx, cliActor, { userId: ann.user.id });
      expect(await annStream.closed).toMatchObject({ code: 1008 });
      expect((await ben.call('chat.sendFromComposer', { to: ben.user.id, text: 'ben stays' })).status).toBe(200);
      await benStream.waitFor(messageWithText('ben stays'));
    });

    it('rotating the secret closes the listen connections opened with the old one; the developer’s session keeps its own until they sign out', async () => {
      const { team, people } = await streamCast(t(), ['Dev']);
      const [dev] = people;
      const app = await t().f.app(team.id, dev.user.id);
      const bySecret = await openListen(t(), app.id, app.secret);
      const bySession = await openListen(t(), app.id, dev.sessionToken);
      const { secret } = await rotateAppSecret(t().server.ctx, cliActor, { appId: app.id });
      expect(await bySecret.closed).toMatchObject({ code: 1008, reason: expect.stringMatching(/secret changed/) });
      const byNewSecret = await openListen(t(), app.id, secret);

      await signOut(t(), dev.sessionToken);
      expect(await bySession.closed).toMatchObject({ code: 1008, reason: expect.stringMatching(/signed out/) });
      expect(byNewSecret.socket.readyState).toBe(WebSocket.OPEN);
      await deleteApp(t().server.ctx, cliActor, { appId: app.id });
      expect(await byNewSecret.closed).toMatchObject({ code: 1008, reason: expect.stringMatching(/deleted/) });
    });
  },
  { stream: { sessionCheckMs: 3_600_000 } },
);
