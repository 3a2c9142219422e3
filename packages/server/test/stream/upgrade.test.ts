import { WebSocket } from 'ws';
import { afterEach, expect, it } from 'vitest';
import { expectError, http } from '../client/harness.js';
import { forEachDialect, type CallResult, type TestServer } from '../helpers/server.js';
import { closeStreams, messageWithText, openStream, streamCast, streamUrl } from './harness.js';

afterEach(closeStreams);

/** Tries to open the stream; resolves with the refusal the server answered instead of upgrading. */
function refusedUpgrade(t: TestServer, query: Record<string, string>, headers: Record<string, string> = {}, path = '/api/stream'): Promise<CallResult> {
  const url = streamUrl(t, query).replace('/api/stream', path);
  const socket = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => reject(new Error('the stream opened')));
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: new Headers(response.headers as Record<string, string>), body: JSON.parse(text) }));
    });
  });
}

/** The server's clock runs this far ahead of the real one. */
let clockAhead = 0;

forEachDialect(
  'opening the stream',
  (t) => {
    const own = () => new URL(t().url).origin;
    const cookie = (token: string) => `aviary_session=${token}`;

    it('opens with the session cookie from the server’s own pages, and refuses pages of other sites', async () => {
      const { people } = await streamCast(t(), ['Ann']);
      const [ann] = people;
      const stream = await openStream(t(), ann, { headers: { cookie: cookie(ann.sessionToken), origin: own() } });
      expect(stream.frames[0]).toMatchObject({ type: 'hello', userId: ann.user.id });
      expectError(await refusedUpgrade(t(), {}, { cookie: cookie(ann.sessionToken), origin: 'https://evil.example' }), { status: 403, error: 'CrossSiteRequest' });
      expectError(await refusedUpgrade(t(), {}, { cookie: cookie(ann.sessionToken), 'sec-fetch-site': 'cross-site' }), { status: 403, error: 'CrossSiteRequest' });
      // A bearer token is never sent by a browser on its own: no Origin needed.
      await openStream(t(), ann, { headers: { authorization: `Bearer ${ann.sessionToken}`, origin: 'https://evil.example' } });
    });

    it('refuses without a session, with a bad cursor, elsewhere than /api/stream, and answers a plain GET', async () => {
      const { people } = await streamCast(t(), ['Ann']);
      const bearer = { authorization: `Bearer ${people[0].sessionToken}` };
      expectError(await refusedUpgrade(t(), {}), { status: 401, error: 'NotSignedIn' });
      expectError(await refusedUpgrade(t(), {}, { authorization: 'Bearer as_s_nonsense' }), { status: 401, error: 'NotSignedIn' });
      expectError(await refusedUpgrade(t(), { cursor: '-1' }, bearer), { status: 400, error: 'InvalidParameter', parameter: 'cursor' });
      expectError(await refusedUpgrade(t(), { cursor: '1e9' }, bearer), { status: 400, error: 'InvalidParameter', parameter: 'cursor' });
      expectError(await refusedUpgrade(t(), {}, bearer, '/api/streams'), { status: 404, error: 'NoSuchMethod' });
      expectError(await http(t().url, 'GET', '/api/stream', { headers: bearer }), { status: 400, error: 'InvalidRequestData', description: /WebSocket/ });
    });

    it('opens once with a ticket, which is then spent', async () => {
      const { people } = await streamCast(t(), ['Ann', 'Ben']);
      const [ann, ben] = people;
      const issued = await ann.call('stream.createTicket');
      expect(issued.body).toEqual({ ticket: expect.stringMatching(/^st_/), expiresAt: expect.any(Number) });
      const stream = await openStream(t(), undefined, { ticket: issued.body.ticket });
      expect(stream.frames[0]).toMatchObject({ type: 'hello', userId: ann.user.id });
      await ben.call('chat.sendFromComposer', { to: ann.user.id, text: 'by ticket' });
      await stream.waitFor(messageWithText('by ticket'));
      expectError(await refusedUpgrade(t(), { ticket: issued.body.ticket }), { status: 401, error: 'NotSignedIn', description: /ticket/ });
      expectError(await refusedUpgrade(t(), { ticket: 'st_forged' }), { status: 401, error: 'NotSignedIn' });
    });

    it('refuses a ticket once it expired, or once its session signed out', async () => {
      const { people } = await streamCast(t(), ['Ann']);
      const [ann] = people;
      const late = (await ann.call('stream.createTicket')).body.ticket;
      clockAhead = 61_000;
      try {
        expectError(await refusedUpgrade(t(), { ticket: late }), { status: 401, error: 'NotSignedIn' });
      } finally {
        clockAhead = 0;
      }
      const orphan = (await ann.call('stream.createTicket')).body.ticket;
      await http(t().url, 'DELETE', '/api/session', { headers: { authorization: `Bearer ${ann.sessionToken}` } });
      expectError(await refusedUpgrade(t(), { ticket: orphan }), { status: 401, error: 'NotSignedIn' });
    });

    it('refuses a person’s stream beyond maxConnectionsPerPerson', async () => {
      const { people } = await streamCast(t(), ['Ann']);
      const [ann] = people;
      await openStream(t(), ann);
      await openStream(t(), ann);
      const refused = await refusedUpgrade(t(), {}, { authorization: `Bearer ${ann.sessionToken}` });
      expectError(refused, { status: 429, error: 'TooManyRequests' });
      expect(refused.headers.get('retry-after')).toBe('5');
    });
  },
  { stream: { maxConnectionsPerPerson: 2, ticketLifetimeMs: 60_000 } },
  { now: () => Date.now() + clockAhead },
);
