import { expect, it } from 'vitest';
import { teamWithApp } from '../helpers/factories.js';
import { forEachDialect } from '../helpers/server.js';

/** The Idempotency-Key header: what lets nginx resend a call to another process (deploy/nginx/aviary.conf). */
forEachDialect('the Idempotency-Key header', (t) => {
  const pair = async () => {
    const { people } = await teamWithApp(t().testStore.store.db, 2);
    return { alice: people[0], bob: people[1] };
  };

  it('is chat.sendMessage’s id: the same key twice sends one message and answers its uid both times', async () => {
    const { alice, bob } = await pair();
    const send = () => t().call('chat.sendMessage', { form: { token: alice.token, to: bob.id, text: 'once only' }, headers: { 'idempotency-key': 'key-1' } });
    const [first, second] = [await send(), await send()];
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(second.body).toEqual(first.body);
    const sameIdInBody = await t().call('chat.sendMessage', { form: { token: alice.token, to: bob.id, text: 'once only', id: 'key-1' } });
    expect(sameIdInBody.body).toEqual(first.body);
    const history = await t().call('chat.fetchMessages', { query: { token: alice.token, chat: bob.id } });
    expect(history.body.filter((message: { text: string }) => message.text === 'once only')).toHaveLength(1);
  });

  it('must agree with an id in the body', async () => {
    const { alice, bob } = await pair();
    const answer = await t().call('chat.sendMessage', { form: { token: alice.token, to: bob.id, text: 'two ids', id: 'one' }, headers: { 'idempotency-key': 'other' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'InvalidParameter', parameter: 'id' });
  });

  it('is refused, before anything is done, by a method that takes no client id', async () => {
    const { alice } = await pair();
    const answer = await t().call('channels.create', { form: { token: alice.token, name: 'not-created' }, headers: { 'idempotency-key': 'k' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'InvalidParameter', parameter: 'Idempotency-Key' });
    const channels = await t().call('channels.list', { query: { token: alice.token } });
    expect(channels.body.map((channel: { name: string }) => channel.name)).not.toContain('not-created');
  });
});
