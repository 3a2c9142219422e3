import { describe, expect, it } from 'vitest';
import { setAppDisabledForTeam, setInstallDisabled, removeInstall } from '../../src/core/commands/apps.js';
import { deactivatePerson } from '../../src/core/commands/people.js';
import { teamWithApp } from '../helpers/factories.js';
import { forEachDialect } from '../helpers/server.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

forEachDialect('method pipeline', (t) => {
  const cast = async (count = 1) => teamWithApp(t().testStore.store.db, count);

  describe('encodings', () => {
    it('reads the token from GET query, POST form, POST JSON and the Authorization header', async () => {
      const { people } = await cast();
      const token = people[0].token;
      const answers = await Promise.all([
        t().call('users.getInfo', { query: { token } }),
        t().call('users.getInfo', { form: { token } }),
        t().call('users.getInfo', { json: { token } }),
        t().call('users.getInfo', { headers: { authorization: `Bearer ${token}` } }),
        t().call('users.getInfo', { httpMethod: 'POST', query: { token }, form: { unrelated: 'x' } }),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.body.id).toBe(people[0].id);
        expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      }
    });

    it('decodes forms and query strings: + as space, UTF-8 escapes, bad escapes kept as sent, repeats refused', async () => {
      const { people } = await cast(2);
      const [alice, bob] = people;
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const send = async (encodedText: string, how: 'form' | 'query') => {
        const pairs = `token=${alice.token}&to=${bob.id}&text=${encodedText}`;
        const answer = how === 'form' ? await t().call('chat.sendMessage', { body: pairs, headers: form }) : await t().call(`chat.sendMessage?${pairs}`);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        const fetched = await t().call('chat.fetchMessages', { query: { token: alice.token, chat: bob.id, uids: answer.body.uid } });
        return fetched.body[0].text as string;
      };
      for (const how of ['form', 'query'] as const) {
        expect(await send('caf%C3%A9+%26+cr%C3%A8me%2B1', how)).toBe('café & crème+1');
        expect(await send('100%+sure+%E0%A4', how)).toBe('100% sure %E0%A4');
      }
      const repeated = await t().call('chat.sendMessage', { body: `token=${alice.token}&to=${bob.id}&text=a&text=b`, headers: form });
      expect(repeated.status).toBe(400);
      expect(repeated.body).toMatchObject({ error: 'InvalidParameter', parameter: 'text', description: '"text" takes one value, and was given 2 values (repeated, or as a list); give it once, as a single value.' });
      const listed = await t().call('chat.sendMessage', { json: { token: alice.token, to: bob.id, text: ['hi'] } });
      expect(listed.body).toMatchObject({ error: 'InvalidParameter', parameter: 'text', description: expect.stringMatching(/^"text" takes one value, and was given a list of one value;/) });
      const prototypeKey = await t().call('users.getInfo', { body: `__proto__=x&token=${alice.token}&constructor=y`, headers: form });
      expect(prototypeKey.status).toBe(200);
    });

    it('lets the body win over the query string on POST', async () => {
      const { people } = await cast();
      const answer = await t().call('users.getInfo', { query: { token: 'wrong' }, form: { token: people[0].token } });
      expect(answer.status).toBe(200);
    });

    it('answers every response, success or failure, with an X-Request-Id', async () => {
      const ok = await t().call('users.getInfo', { query: { token: 'nope' } });
      const missing = await t().call('no.suchMethod');
      for (const answer of [ok, missing]) expect(answer.headers.get('x-request-id')).toMatch(/^req_[\w-]{12}$/);
      expect(ok.headers.get('x-request-id')).not.toBe(missing.headers.get('x-request-id'));
    });
  });

  describe('errors in the order of docs/errors.md', () => {
    it('NoSuchMethod for an unknown method, also under another version or with a wrong verb', async () => {
      for (const answer of [
        await t().call('chat.nope'),
        await t().call('chat.nope', { httpMethod: 'PUT' }),
        await t().call('chat.nope', { body: '{', headers: { 'content-type': 'application/json' } }),
      ]) {
        expect(answer.status).toBe(404);
        expect(answer.body).toMatchObject({ error: 'NoSuchMethod' });
        expect(answer.body.description).toContain('chat.nope');
      }
      const v2 = await fetch(`${t().url}/v2/users.getInfo`);
      expect(v2.status).toBe(404);
      expect((await v2.json()).error).toBe('NoSuchMethod');
    });

    it('HTTPMethodNotAllowed with Allow for PUT, PATCH and DELETE', async () => {
      for (const httpMethod of ['PUT', 'PATCH', 'DELETE']) {
        const answer = await t().call('users.getInfo', { httpMethod, body: 'token=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
        expect(answer.status).toBe(405);
        expect(answer.headers.get('allow')).toBe('GET, POST');
        expect(answer.body.error).toBe('HTTPMethodNotAllowed');
      }
    });

    it('OPTIONS answers Allow; HEAD is not allowed (it would run the method), and has no body', async () => {
      const options = await fetch(`${t().url}/v1/users.getInfo`, { method: 'OPTIONS' });
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toContain('POST');
      const head = await fetch(`${t().url}/v1/users.getInfo?token=nope`, { method: 'HEAD' });
      expect(head.status).toBe(405);
      expect(head.headers.get('allow')).toBe('GET, POST');
      expect(await head.text()).toBe('');
    });

    it('InvalidRequestData for unreadable bodies, before the token is looked at', async () => {
      const cases = [
        { body: '{"token": ', headers: { 'content-type': 'application/json' } },
        { body: '[1,2]', headers: { 'content-type': 'application/json' } },
        { body: '"token"', headers: { 'content-type': 'application/json' } },
        { body: 'token=x', headers: { 'content-type': 'text/plain' } },
        { body: '<x/>', headers: { 'content-type': 'application/xml' } },
      ];
      for (const options of cases) {
        const answer = await t().call('users.getInfo', { httpMethod: 'POST', ...options });
        expect(answer.status, options.body).toBe(400);
        expect(answer.body.error).toBe('InvalidRequestData');
        expect(answer.body.description.length).toBeGreaterThan(10);
      }
      // A type no method reads is named as such, and a body with no type at all is told so.
      const plain = await t().call('users.getInfo', { httpMethod: 'POST', body: 'token=x', headers: { 'content-type': 'text/plain' } });
      expect(plain.body.description).toMatch(/^The content type "text\/plain" is not supported; send application\/x-www-form-urlencoded or application\/json\.$/);
      const untyped = await fetch(`${t().url}/v1/users.getInfo`, { method: 'POST', body: new TextEncoder().encode('token=x') });
      expect(untyped.status).toBe(400);
      expect(await untyped.json()).toMatchObject({ error: 'InvalidRequestData', description: expect.stringMatching(/^The request has a body but no Content-Type header; send/) });
    });

    it('RequestTooLarge (413) for a body over 1 MiB', async () => {
      const answer = await t().call('users.getInfo', { form: { token: 'x', text: 'a'.repeat(1024 * 1024 + 10) } });
      expect(answer.status).toBe(413);
      expect(answer.body.error).toBe('RequestTooLarge');
    });

    it('MissingParameter token, then InvalidToken, then the parameters', async () => {
      const missing = await t().call('users.getPublicProfile', { query: { userId: 'bad' } });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: 'MissingParameter', parameter: 'token', description: expect.any(String) });
      const empty = await t().call('users.getInfo', { query: { token: '' } });
      expect(empty.body).toMatchObject({ error: 'MissingParameter', parameter: 'token' });
      const invalid = await t().call('users.getPublicProfile', { query: { token: 'not-a-token', userId: 'bad' } });
      expect(invalid.status).toBe(403);
      expect(invalid.body.error).toBe('InvalidToken');
    });

    it('InvalidToken once the app is uninstalled or the person deactivated', async () => {
      const { app, people } = await cast(2);
      await removeInstall(storeContext(t().testStore.store.db), { id: people[0].id }, { appId: app.id });
      await deactivatePerson(t().server.ctx, cliActor, { userId: people[1].id });
      for (const person of people) {
        const answer = await t().call('users.getInfo', { query: { token: person.token } });
        expect(answer.status).toBe(403);
        expect(answer.body.error).toBe('InvalidToken');
      }
    });

    it('AppDisabled with disabledBy user or team, and the token works again once re-enabled', async () => {
      const { app, people } = await cast(2);
      const db = t().testStore.store.db;
      await setInstallDisabled(storeContext(db), people[0], { appId: app.id, disabled: true });
      const byUser = await t().call('users.getInfo', { query: { token: people[0].token } });
      expect(byUser.status).toBe(403);
      expect(byUser.body).toMatchObject({ error: 'AppDisabled', disabledBy: 'user' });
      expect((await t().call('users.getInfo', { query: { token: people[1].token } })).status).toBe(200);

      await setAppDisabledForTeam(storeContext(db), cliActor, { appId: app.id, disabled: true });
      const byTeam = await t().call('users.getInfo', { query: { token: people[1].token } });
      expect(byTeam.body).toMatchObject({ error: 'AppDisabled', disabledBy: 'team' });

      await setAppDisabledForTeam(storeContext(db), cliActor, { appId: app.id, disabled: false });
      await setInstallDisabled(storeContext(db), people[0], { appId: app.id, disabled: false });
      for (const person of people) expect((await t().call('users.getInfo', { query: { token: person.token } })).status).toBe(200);
    });

    it('a 500 carries requestId and no internals', async () => {
      const { people } = await cast();
      const store = t().testStore.store;
      // Break the store underneath the server: a real unexpected condition, not a mocked one.
      await store.db.schema.alterTable('users').renameTo('users_gone').execute();
      try {
        const answer = await t().call('users.getInfo', { query: { token: people[0].token } });
        expect(answer.status).toBe(500);
        expect(answer.body).toEqual({ error: 'InternalServerError', description: expect.any(String), requestId: answer.headers.get('x-request-id') });
        // The description is the answer's only text (the request id is random: it may hold "sql").
        expect(answer.body.description).not.toMatch(/users_gone|at \w+ \(|\.ts:|SQL|sqlite|postgres/i);
      } finally {
        await store.db.schema.alterTable('users_gone').renameTo('users').execute();
      }
    });
  });
});
