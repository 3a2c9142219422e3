import { AviaryApiError, AviaryClient, AviaryDeveloperApi, signIn, signOut, toChatId, toMessageUid } from '@aviary/sdk';
import { expect, it } from 'vitest';
import { forEachDialect, type TestServer } from '../helpers/server.js';

const password = 'typed all the way down';

/** A person of a new team who can sign in, and a teammate to write to. */
async function pair(t: TestServer) {
  const team = await t.f.team();
  return { person: await t.f.person(team.id, { password }), teammate: await t.f.person(team.id) };
}

/** What a call threw, which must be the SDK's error. */
async function failure(call: Promise<unknown>): Promise<AviaryApiError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AviaryApiError);
  return error as AviaryApiError;
}

forEachDialect('typed clients: AviaryClient with a session, the developer routes', (t) => {
  it('signs in, then sends and reads through AviaryClient with the session; failures carry code, status and parameter', async () => {
    const { person, teammate } = await pair(t());
    const signedIn = await signIn({ baseUrl: t().url, email: person.email!, password });
    expect(signedIn.user.id).toBe(person.id);
    expect(signedIn.sessionToken).toMatch(/^as_s_/);

    const asPerson = new AviaryClient({ baseUrl: t().url, token: signedIn.sessionToken });
    const to = toChatId(teammate.id);
    expect(await asPerson.chat.sendMessage({ to, text: 'hello through the protocol' })).toEqual({ uid: expect.any(String) });
    expect(await asPerson.chat.sendFromComposer({ to, text: 'and from the composer' })).toMatchObject({ message: { from: person.id, text: 'and from the composer' } });
    const history = await asPerson.chat.fetchMessages({ chat: to, limit: 5 });
    expect(history.map((message) => message.text)).toEqual(['and from the composer', 'hello through the protocol']);
    expect((await asPerson.team.getInfo()).team.id).toBe(person.team_id);
    expect((await asPerson.users.getInfo()).id).toBe(person.id);
    expect((await asPerson.roster.listContacts()).map((contact) => contact.id)).toContain(teammate.id);
    expect((await asPerson.chat.listConversations()).conversations.map((conversation) => conversation.chat)).toEqual([teammate.id]);
    expect(await failure(asPerson.apps.install({ appId: 'a:nosuchappatallx' }))).toMatchObject({ code: 'UnknownApp', status: 404 });
    expect(await failure(asPerson.chat.markRead({ chat: to, uid: toMessageUid('01M8362BJ4BRPRHYPZ1PK4DKJQ') }))).toMatchObject({ code: 'InvalidParameter', parameter: 'uid' });
    expect(await failure(asPerson.chat.fetchMessages({ chat: to, limit: 500 }))).toMatchObject({ code: 'InvalidParameter', status: 400, parameter: 'limit' });

    await signOut({ baseUrl: t().url, sessionToken: signedIn.sessionToken });
    expect(await failure(asPerson.roster.listContacts())).toMatchObject({ code: 'NotSignedIn', status: 401 });
  });

  it('signing in with a wrong password throws InvalidCredentials', async () => {
    const { person } = await pair(t());
    expect(await failure(signIn({ baseUrl: t().url, email: person.email!, password: 'not it at all' }))).toMatchObject({ code: 'InvalidCredentials', status: 401 });
  });

  it('makes and changes an app through AviaryDeveloperApi: path parameters, a query, a whole-object body', async () => {
    const { person } = await pair(t());
    const { sessionToken } = await signIn({ baseUrl: t().url, email: person.email!, password });
    const developer = new AviaryDeveloperApi({ baseUrl: t().url, sessionToken });

    const { app } = await developer.createApp({ name: '  Weather  ', listenerUrl: 'https://weather.example/events' });
    expect(app).toMatchObject({ name: 'Weather', developerId: person.id, secret: expect.stringMatching(/^as_/) });
    const changed = await developer.updateApp({ id: app.id, description: 'Rain or shine', listenerUrl: null });
    expect(changed.app).toMatchObject({ description: 'Rain or shine', listenerUrl: null });

    const set = await developer.setIntegrations({ id: app.id, integrations: { slashCommands: [{ name: 'weather', action: { type: 'sendToApp' } }] } });
    expect(set.integrations).toEqual({ slashCommands: [{ name: 'weather', action: { type: 'sendEvent' } }], previewDomains: [] });
    const nested = await failure(developer.setIntegrations({ id: app.id, integrations: { slashCommands: [{ name: '/weather', action: { type: 'sendEvent' } }] } }));
    expect(nested).toMatchObject({ code: 'InvalidParameter', parameter: 'slashCommands[0].name' });

    expect(await developer.listEvents({ id: app.id, limit: 10, status: 'failed' })).toEqual({ events: [] });
    expect(await failure(developer.updateApp({ id: app.id, name: 'x'.repeat(81) }))).toMatchObject({ code: 'InvalidParameter', parameter: 'name' });
    expect(await developer.deleteApp({ id: app.id })).toEqual({ deleted: true });
    expect(await failure(developer.getApp({ id: app.id }))).toMatchObject({ code: 'UnknownApp', status: 404 });
  });

});
