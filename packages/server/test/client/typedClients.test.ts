import { AviaryApiError, AviaryClient, signIn, signOut, toChatId, toMessageUid } from '@aviary/sdk';
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

forEachDialect('typed clients: AviaryClient with a session, for a person and for a developer', (t) => {
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

  it('makes and changes an app through AviaryClient with a session, then as the app with its secret', async () => {
    const { person } = await pair(t());
    const { sessionToken } = await signIn({ baseUrl: t().url, email: person.email!, password });
    const developer = new AviaryClient({ baseUrl: t().url, token: sessionToken });

    const { app } = await developer.apps.create({ name: '  Weather  ', listenerUrl: 'https://weather.example/events' });
    expect(app).toMatchObject({ name: 'Weather', developerId: person.id, secret: expect.stringMatching(/^as_/) });
    const changed = await developer.apps.update({ appId: app.id, description: 'Rain or shine', listenerUrl: null });
    expect(changed.app).toMatchObject({ description: 'Rain or shine', listenerUrl: null });

    const set = await developer.apps.setIntegrations({ appId: app.id, integrations: { slashCommands: [{ name: 'weather', action: { type: 'sendToApp' } }] } });
    expect(set.integrations).toEqual({ slashCommands: [{ name: 'weather', action: { type: 'sendEvent' } }], previewDomains: [] });
    const nested = await failure(developer.apps.setIntegrations({ appId: app.id, integrations: { slashCommands: [{ name: '/weather', action: { type: 'sendEvent' } }] } }));
    expect(nested).toMatchObject({ code: 'InvalidParameter', parameter: 'integrations.slashCommands[0].name' });

    expect(await developer.deliveries.list({ appId: app.id, limit: 10, status: 'failed' })).toEqual({ events: [] });
    expect(await failure(developer.apps.update({ appId: app.id, name: 'x'.repeat(81) }))).toMatchObject({ code: 'InvalidParameter', parameter: 'name' });

    // The app itself, with its secret: it reads and changes itself, but may not delete itself.
    const itself = new AviaryClient({ baseUrl: t().url, token: app.secret! });
    expect((await itself.apps.getInfo({ appId: app.id })).app).toMatchObject({ id: app.id, secret: app.secret });
    expect((await itself.apps.update({ appId: app.id, listenerUrl: 'https://weather.example/v2' })).app.listenerUrl).toBe('https://weather.example/v2');
    expect(await failure(itself.apps.delete({ appId: app.id }))).toMatchObject({ code: 'NotSignedIn', status: 401 });

    expect(await developer.apps.delete({ appId: app.id })).toEqual({ deleted: true });
    expect(await failure(developer.apps.getInfo({ appId: app.id }))).toMatchObject({ code: 'UnknownApp', status: 404 });
    expect(await failure(itself.apps.getInfo({ appId: app.id }))).toMatchObject({ code: 'InvalidToken' });
  });

});
