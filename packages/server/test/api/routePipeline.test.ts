import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, http, sessionFor } from '../client/harness.js';
import { teamWithApp } from '../helpers/factories.js';
import { forEachDialect, startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';

/** A developer signed in, with an app of theirs. */
async function developerWithApp(t: TestServer) {
  const team = await t.f.team();
  const person = await t.f.person(team.id);
  const app = await t.f.app(team.id, person.id);
  const session = await sessionFor(t, person);
  const headers = { authorization: `Bearer ${session.sessionToken}` };
  const request = (method: string, path: string, json?: unknown) => http(t.url, method, path, { headers, json });
  const call = (method: string, params: object) => request('POST', `/v1/${method}`, { appId: app.id, ...params });
  return { app, headers, request, call };
}

forEachDialect('route pipeline', (t) => {
  describe('decoding and validating', () => {
    it('refuses a field a strict method does not declare, naming it', async () => {
      const { call } = await developerWithApp(t());
      expectError(await call('apps.update', { name: 'Renamed', colour: 'red' }), { error: 'InvalidParameter', parameter: 'colour', description: /not a field/ });
      expectError(await call('apps.update', { id: 'a:someoneelses' }), { error: 'InvalidParameter', parameter: 'id' });
    });

    it('reads null and "" as clearing a clearable field, and as absent otherwise', async () => {
      const { app, call } = await developerWithApp(t());
      const set = await call('apps.update', { icon: 'https://example.test/i.png', description: 'D', allowedOrigins: ['https://a.example'] });
      expect(set.body.app).toMatchObject({ icon: 'https://example.test/i.png', description: 'D', allowedOrigins: ['https://a.example'] });
      const cleared = await call('apps.update', { icon: '', description: null, allowedOrigins: null, name: null });
      expect(cleared.body.app).toMatchObject({ icon: null, description: '', allowedOrigins: [], name: app.name });
    });

    it('refuses an empty or blank app name in a change as InvalidParameter naming name, and keeps the name', async () => {
      const { app, call } = await developerWithApp(t());
      for (const name of ['', '   ']) {
        expectError(await call('apps.update', { name, description: 'changed' }), { error: 'InvalidParameter', parameter: 'name', description: /must not be empty/ });
      }
      const kept = (await call('apps.getInfo', {})).body.app;
      expect(kept.name).toBe(app.name);
      expect(kept.description).not.toBe('changed');
    });

    it('answers an empty list for a required list of at least one item as MissingParameter, a list too long as InvalidParameter', async () => {
      const { request } = await developerWithApp(t());
      const act = (messageUids: unknown) => request('POST', '/v1/interactions.runMessageAction', { appId: 'a:x', chat: 'g:aaaaaaaaaaaaaaaa', messageUids });
      expectError(await act([]), { error: 'MissingParameter', parameter: 'messageUids' });
      expectError(await act(['x']), { error: 'InvalidParameter', parameter: 'messageUids' });
      // In a JSON body an array is a value, not a parameter given twice.
      expectError(await act({ a: 1 }), { error: 'InvalidParameter', parameter: 'messageUids' });
      // A method reads a list for a single value as that parameter given several times, as /v1 always has.
      expectError(await request('POST', '/v1/interactions.runServicemlAction', { messageUid: ['a', 'b'], actionId: 'x' }), {
        error: 'InvalidParameter',
        parameter: 'messageUid',
        description: /^"messageUid" takes one value, and was given 2 values/,
      });
    });

    it('checks what the core checks in core, worded once for the API and the CLI', async () => {
      const { call } = await developerWithApp(t());
      const refused = await call('apps.update', { listenerUrl: 'ftp://example.test/events' });
      expectError(refused, { error: 'InvalidParameter', parameter: 'listenerUrl', description: /^listenerUrl must be an http or https URL; got the scheme "ftp:"\.$/ });
      expectError(await call('apps.update', { allowedOrigins: [7] }), { error: 'InvalidParameter', parameter: 'allowedOrigins[0]', description: /must be a string/ });
    });
  });
});

describe('checkResults', () => {
  let checking: TestServer;
  let trusting: TestServer;
  beforeAll(async () => {
    [checking, trusting] = await Promise.all([startTestServer('sqlite'), startTestServer('sqlite', { checkResults: false })]);
  });
  afterAll(async () => {
    await Promise.all([stopTestServer(checking), stopTestServer(trusting)]);
  });

  /** An app whose stored integrations no longer match their schema, as a bug in a writer would leave them. */
  async function appWithBrokenIntegrations(t: TestServer) {
    const { app, call } = await developerWithApp(t);
    await t.testStore.store.db.updateTable('apps').set({ integrations: '{"slashCommands":[{"name":"/no action"}],"previewDomains":[]}' }).where('id', '=', app.id).execute();
    return { app, call };
  }

  it('answers 500 naming the mismatch when a route’s result does not match its schema', async () => {
    const { call } = await appWithBrokenIntegrations(checking);
    const answer = await call('apps.getInfo', {});
    expectError(answer, { status: 500, error: 'InternalServerError', description: /apps\.getInfo does not match its schema: \/app\/integrations/ });
    expect(answer.body.requestId).toBe(answer.headers.get('x-request-id'));
  });

  it('checks the /v1 methods’ results too', async () => {
    const { people } = await teamWithApp(checking.testStore.store.db, 1);
    await checking.testStore.store.db.updateTable('users').set({ role: 'owner' as never }).where('id', '=', people[0].id).execute();
    const answer = await checking.call('users.getInfo', { query: { token: people[0].token } });
    expectError(answer, { status: 500, error: 'InternalServerError', description: /users\.getInfo does not match its schema: \/role/ });
  });

  it('is off unless configured: the same result is answered as it is', async () => {
    const { call } = await appWithBrokenIntegrations(trusting);
    const answer = await call('apps.getInfo', {});
    expect(answer.status).toBe(200);
    expect(answer.body.app.integrations.slashCommands).toEqual([{ name: '/no action' }]);
  });
});
