import { describe, expect, it } from 'vitest';
import { createMethodClient, idempotencyParamOf, methodRequest, methodsByName } from '../src/index.js';

describe('methodRequest', () => {
  it('posts JSON to /v1/<method>, with the bearer when there is one', () => {
    const { url, init } = methodRequest('https://chat.example/', 'users.getInfo', {}, 'tok');
    expect(url).toBe('https://chat.example/v1/users.getInfo');
    expect(init).toMatchObject({ method: 'POST', body: '{}', headers: { 'content-type': 'application/json', authorization: 'Bearer tok' } });
  });

  it('sends the idempotency param of a method that has one as Idempotency-Key too, and never for other methods', () => {
    const headersOf = (method: string, params: Record<string, unknown>) => methodRequest('', method, params, undefined).init.headers as Record<string, string>;
    expect(headersOf('chat.sendMessage', { to: 'u:x', text: 'hi', id: 'c-1' })['idempotency-key']).toBe('c-1');
    expect(headersOf('chat.sendMessage', { to: 'u:x', text: 'hi' })).not.toHaveProperty('idempotency-key');
    expect(headersOf('channels.create', { name: 'x', id: 'c-1' })).not.toHaveProperty('idempotency-key');
  });

  it('knows the idempotency param of exactly the methods whose definitions have one', () => {
    for (const [name, method] of methodsByName) expect(idempotencyParamOf(name), name).toBe(method.idempotencyParam);
    expect(idempotencyParamOf('toString')).toBeUndefined();
  });
});

describe('createMethodClient', () => {
  it('answers the result of a 200 and throws the error of any other answer', async () => {
    const answers = [new Response('{"uid":"01"}', { status: 200 }), new Response('{"error":"UnknownRecipient","description":"no"}', { status: 404 })];
    const client = createMethodClient({ fetch: async () => answers.shift()! });
    await expect(client.chat.sendMessage({ to: 'u:aaaaaaaaaaaaaaaa', text: 'hi' })).resolves.toEqual({ uid: '01' });
    await expect(client.chat.sendMessage({ to: 'u:aaaaaaaaaaaaaaaa', text: 'hi' })).rejects.toMatchObject({ status: 404, code: 'UnknownRecipient' });
  });

  it('calls a method by its namespace and verb, and is no promise itself', async () => {
    const urls: string[] = [];
    const client = createMethodClient({ fetch: async (url) => (urls.push(url), new Response('{}', { status: 200 })) });
    await client.reactions.add({ messageUid: '01', emoji: '👍' });
    await client.users.getInfo();
    expect(urls).toEqual(['/v1/reactions.add', '/v1/users.getInfo']);
    expect((client as unknown as { then?: unknown }).then).toBeUndefined();
    expect((client.chat as unknown as { then?: unknown }).then).toBeUndefined();
    await expect(Promise.resolve(client)).resolves.toBe(client);
  });
});
