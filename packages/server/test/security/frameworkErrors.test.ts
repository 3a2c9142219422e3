import { errorRegistry } from '@aviary/protocol';
import { expect, it } from 'vitest';
import { RawConnection, type RawResponse } from '../api/rawHttp.js';
import { teamWithApp } from '../helpers/factories.js';
import { forEachDialect } from '../helpers/server.js';

/** Sends one raw request on a fresh connection and returns the one answer. */
async function rawExchange(url: string, text: string): Promise<RawResponse> {
  const connection = await RawConnection.open(url);
  try {
    connection.write(text);
    const [answer] = await connection.responses(1);
    if (!answer) throw new Error(`no answer to ${JSON.stringify(text.slice(0, 80))}`);
    return answer;
  } finally {
    connection.close();
  }
}

/** The API's error shape: a registered code, its status, a description a person can act on. */
function expectApiError(answer: RawResponse, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body);
  expect(body.error).toBe(code);
  expect(errorRegistry[body.error as keyof typeof errorRegistry].status).toBe(status);
  expect(typeof body.description).toBe('string');
  expect(body.description.length).toBeGreaterThan(10);
}

forEachDialect('framework errors answer in the API shape', (t) => {
  it('a path that is not valid percent-encoding: 400 InvalidRequestData', async () => {
    for (const path of ['/%', '/v1/%E0%A4%A', '/api/developer/%zz']) {
      expectApiError(await rawExchange(t().url, `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`), 400, 'InvalidRequestData');
    }
  });

  it('a path segment longer than the router reads: 404 NoSuchMethod, not Fastify’s 414', async () => {
    const answer = await rawExchange(t().url, `GET /v1/${'a'.repeat(5000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectApiError(answer, 404, 'NoSuchMethod');
  });

  it('a missing Host header: 400 InvalidRequestData, not Node’s empty 400', async () => {
    expectApiError(await rawExchange(t().url, 'GET /v1/users.getInfo HTTP/1.1\r\n\r\n'), 400, 'InvalidRequestData');
  });

  it('unparsable HTTP and unknown verbs: 400 InvalidRequestData from Node’s parser', async () => {
    for (const text of ['FROB /v1/users.getInfo HTTP/1.1\r\nHost: x\r\n\r\n', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n', 'GET /\r\n\r\n', 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n']) {
      expectApiError(await rawExchange(t().url, text), 400, 'InvalidRequestData');
    }
  });

  it('a HEAD whose headers are too large gets the error’s headers without a body, so the next response is not garbled', async () => {
    const connection = await RawConnection.open(t().url);
    let received = '';
    connection.socket.on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<void>((resolve) => connection.socket.once('close', () => resolve()));
    connection.write(`HEAD /v1/users.getInfo?token=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await closed;
    const [head, rest] = [received.slice(0, received.indexOf('\r\n\r\n')), received.slice(received.indexOf('\r\n\r\n') + 4)];
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).toMatch(/content-type: application\/json/);
    expect(head).toMatch(/content-length: [1-9]/);
    expect(rest).toBe('');
  });

  it('CONNECT is answered with 405 instead of a closed socket', async () => {
    const answer = await rawExchange(t().url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectApiError(answer, 405, 'HTTPMethodNotAllowed');
    expect(answer.headers.allow).toBe('GET, POST');
  });

  it('TRACE and other verbs Node knows get 405 with Allow on a method’s URL, and the not-found answer elsewhere', async () => {
    for (const verb of ['TRACE', 'PROPFIND', 'SEARCH', 'LOCK']) {
      const answer = await rawExchange(t().url, `${verb} /v1/users.getInfo HTTP/1.1\r\nHost: x\r\n\r\n`);
      expectApiError(answer, 405, 'HTTPMethodNotAllowed');
      expect(answer.headers.allow).toBe('GET, POST');
      expectApiError(await rawExchange(t().url, `${verb} /somewhere HTTP/1.1\r\nHost: x\r\n\r\n`), 404, 'NoSuchMethod');
    }
  });

  it('HEAD on a method is 405 with Allow, and never runs it', async () => {
    const { people } = await teamWithApp(t().testStore.store.db, 2);
    const [sender, recipient] = people;
    const query = new URLSearchParams({ token: sender.token, to: recipient.id, text: 'sent by HEAD' });
    const head = await fetch(`${t().url}/v1/chat.sendMessage?${query}`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET, POST');
    const written = await t().testStore.store.db.selectFrom('messages').select('uid').where('text', '=', 'sent by HEAD').execute();
    expect(written).toEqual([]);
    // The same GET does send it: the HEAD was refused, not the request.
    const get = await fetch(`${t().url}/v1/chat.sendMessage?${query}`);
    expect(get.status).toBe(200);
  });

  it('HEAD on an unknown method is 404 NoSuchMethod, with the headers and no body', async () => {
    const answer = await fetch(`${t().url}/v1/chat.nope`, { method: 'HEAD' });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.text()).toBe('');
  });
});
