import { AviaryApiError, AviaryClient, AviaryPeopleApi, toChatId, toMessageUid } from '@aviary/sdk';
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

forEachDialect('typed clients of the client, developer and session routes', (t) => {
  it('signs in, reads and sends through AviaryPeopleApi; failures carry code, status and parameter', async () => {
    const { person, teammate } = await pair(t());
    const people = new AviaryPeopleApi({ baseUrl: t().url });
    const signedIn = await people.signIn({ email: person.email!, password });
    expect(signedIn.user.id).toBe(person.id);
    expect(people.sessionToken).toBe(signedIn.sessionToken);

    const sent = await people.sendMessage({ to: teammate.id, text: 'hello through the protocol' });
    expect(sent).toMatchObject({ message: { from: person.id, to: teammate.id, text: 'hello through the protocol' } });
    expect((await people.fetchMessages({ chat: teammate.id, limit: 5 })).messages.map((message) => message.text)).toEqual(['hello through the protocol']);
    // The same session calls the methods through AviaryClient, the apps' client.
    const asPerson = new AviaryClient({ baseUrl: t().url, token: signedIn.sessionToken });
    expect((await asPerson.team.getInfo()).team.id).toBe(person.team_id);
    expect((await asPerson.users.getInfo()).id).toBe(person.id);
    expect((await asPerson.chat.listConversations()).conversations.map((conversation) => conversation.chat)).toEqual([teammate.id]);
    expect(await failure(asPerson.apps.install({ appId: 'a:nosuchappatallx' }))).toMatchObject({ code: 'UnknownApp', status: 404 });
    expect(await failure(asPerson.chat.markRead({ chat: toChatId(teammate.id), uid: toMessageUid('01M8362BJ4BRPRHYPZ1PK4DKJQ') }))).toMatchObject({ code: 'InvalidParameter', parameter: 'uid' });

    const badLimit = await failure(people.fetchMessages({ chat: teammate.id, limit: 500 }));
    expect(badLimit).toMatchObject({ code: 'InvalidParameter', status: 400, parameter: 'limit' });

    await people.signOut();
    expect(people.sessionToken).toBeUndefined();
    expect(await failure(people.listRoster())).toMatchObject({ code: 'NotSignedIn', status: 401 });
  });

  it('makes and changes an app through AviaryClient with a session, then as the app with its secret', async () => {
    const { person } = await pair(t());
    const { sessionToken } = await new AviaryPeopleApi({ baseUrl: t().url }).signIn({ email: person.email!, password });
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

  it('in cookie mode sends no Authorization header: the session cookie signing in set carries the session', async () => {
    const { person, teammate } = await pair(t());
    // What a browser does for the page: keep the cookie the server sets and send it back.
    let cookie: string | undefined;
    const sentAuthorization: Array<string | undefined> = [];
    const browserFetch = async (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
      sentAuthorization.push(init.headers.authorization);
      const response = await fetch(url, { ...init, headers: { ...init.headers, ...(cookie ? { cookie } : {}) } });
      cookie = response.headers.get('set-cookie')?.split(';')[0] ?? cookie;
      return response;
    };
    const people = new AviaryPeopleApi({ baseUrl: t().url, session: 'cookie', fetch: browserFetch });
    await people.signIn({ email: person.email!, password });
    expect(cookie).toMatch(/^aviary_session=as_s_/);
    await people.sendMessage({ to: teammate.id, text: 'by cookie' });
    expect((await people.fetchMessages({ chat: teammate.id })).messages).toHaveLength(1);
    expect(sentAuthorization).toEqual([undefined, undefined, undefined]);
  });
});
