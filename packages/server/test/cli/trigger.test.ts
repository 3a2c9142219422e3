import { eventExamples, eventNames } from '@aviary/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../helpers/dialects.js';
import { answerWithSdk, startListener, type TestListener } from '../helpers/listener.js';
import { runCli, runCliJson } from './cli.js';
import { cliStore, teamWithDeveloper, type CliStore } from './stores.js';

describe.each(dialects)('aviary trigger (%s)', (dialect) => {
  let store: CliStore;
  let on: string[];
  let developerId: string;
  let listener: TestListener;
  let app: { id: string; secret: string };

  beforeAll(async () => {
    store = await cliStore(dialect);
    on = store.on;
    ({ developerId } = await teamWithDeveloper(on));
    listener = await startListener(answerWithSdk);
    app = await runCliJson(['app', 'create', '--name', 'Triggered', '--developer', developerId, '--listener-url', listener.url, ...on]);
  });
  afterAll(async () => {
    await listener.close();
    await store.remove();
  });

  it('sends each of the ten events, signed so that the SDK verifier accepts it with the app’s secret, and prints the answer', async () => {
    listener.verifyAs(app.id, app.secret, {
      onEvent: (event) => (event.name === 'client.slashCommand' ? { text: `you said ${event.text}` } : undefined),
    });
    for (const name of eventNames) {
      const sent = await runCliJson(['trigger', name, '--app', app.id, ...on]);
      expect(sent).toEqual({
        eventId: expect.stringMatching(/^ev_/), event: { ...eventExamples[name], userId: developerId, ...('userName' in eventExamples[name] ? { userName: 'Dana Dev' } : {}) },
        url: listener.url, status: 200, durationMs: expect.any(Number), answer: expect.any(String),
      });
      const verified = listener.verified.at(-1)!;
      expect(verified.event).toEqual(sent.event);
      expect(verified.eventId).toBe(sent.eventId);
      expect(verified.claims).toEqual(expect.objectContaining({ appId: app.id, userId: developerId, jti: sent.eventId, route: 'listener' }));
    }
    expect(listener.verified).toHaveLength(eventNames.length);

    const text = await runCli(['trigger', 'client.slashCommand', '--app', app.id, ...on]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^client\.slashCommand ev_\S+ → http:\/\/127\.0\.0\.1:\d+\/events\nHTTP 200 in \d+ ms\n\{"text":"you said docs --to production"\}\n$/);
  });

  it('a wrong secret is refused by the app, and the CLI prints that answer (403)', async () => {
    listener.verifyAs(app.id, 'as_not-the-secret');
    const sent = await runCliJson(['trigger', 'app.uninstall', '--app', app.id, ...on]);
    expect(sent.status).toBe(403);
  });

  it('--forward-to sends elsewhere; an internal address is refused unless allowed, as the server refuses it', async () => {
    const other = await startListener();
    try {
      const noneAllowed = { AVIARY_ALLOWED_INTERNAL_HOSTS: '' };
      const refused = await runCli(['trigger', 'client.pressButton', '--app', app.id, '--forward-to', other.url, '--json', ...on], noneAllowed);
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout)).toEqual({ error: 'ListenerUnreachable', description: expect.stringContaining('--allow-internal-hosts') });
      expect(other.received).toHaveLength(0);

      const allowed = await runCliJson(['trigger', 'client.pressButton', '--app', app.id, '--forward-to', other.url, '--allow-internal-hosts', '127.0.0.1', ...on], noneAllowed);
      expect(allowed).toEqual(expect.objectContaining({ url: other.url, status: 200, answer: '{}' }));
      expect(other.received.map((request) => request.body.name)).toEqual(['client.pressButton']);
    } finally {
      await other.close();
    }
  });

  it('refuses an unknown event, a bad --forward-to, and an app without a listener URL', async () => {
    const unknown = await runCli(['trigger', 'app.nothing', '--app', app.id, '--json', ...on]);
    expect(JSON.parse(unknown.stdout).error).toBe('InvalidUsage');
    const badUrl = await runCli(['trigger', 'app.install', '--app', app.id, '--forward-to', 'ftp://x.example', '--json', ...on]);
    expect(JSON.parse(badUrl.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringMatching(/^--forward-to must be an http or https URL/) });
    const bare = await runCliJson(['app', 'create', '--name', 'Bare', '--developer', developerId, ...on]);
    const noListener = await runCli(['trigger', 'app.install', '--app', bare.id, '--json', ...on]);
    expect(JSON.parse(noListener.stdout)).toEqual({ error: 'InvalidUsage', description: expect.stringContaining('--forward-to') });
  });
});
