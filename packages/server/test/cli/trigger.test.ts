import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventExamples, eventNames } from '@aviary/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../helpers/dialects.js';
import { answerWithSdk, startListener, type TestListener } from '../helpers/listener.js';
import { startWidgetPages } from '../helpers/widgetPages.js';
import { runCli, runCliJson, tempDataDir } from './cli.js';
import { cliStore, teamWithDeveloper, type CliStore } from './stores.js';

describe.each(dialects)('aviary trigger (%s)', (dialect) => {
  let store: CliStore;
  let on: string[];
  let developerId: string;
  let listener: TestListener;
  let app: { id: string; secret: string };
  const dir = tempDataDir();

  beforeAll(async () => {
    store = await cliStore(dialect);
    on = store.on;
    ({ developerId } = await teamWithDeveloper(on));
    listener = await startListener(answerWithSdk);
    app = await runCliJson(['app', 'create', '--name', 'Triggered', '--developer', developerId, '--listener-url', listener.url, ...on]);
  });
  afterAll(async () => {
    dir.remove();
    await listener.close();
    await store.remove();
  });

  it('sends each of the ten events, signed so that the SDK verifier accepts it with the app’s secret, and prints the answer', async () => {
    listener.verifyAs(app.id, app.secret, {
      onEvent: (event) => (event.name === 'client.slashCommand' ? { text: `you said ${event.text}` } : undefined),
    });
    // client.openAttachmentWidget only ever goes to a widget URL (below).
    const listenerEvents = eventNames.filter((name) => name !== 'client.openAttachmentWidget');
    for (const name of listenerEvents) {
      const sent = await runCliJson(['trigger', name, '--app', app.id, ...on]);
      expect(sent).toEqual({
        eventId: expect.stringMatching(/^ev_/), event: { ...eventExamples[name], userId: developerId, ...('userName' in eventExamples[name] ? { userName: 'Dana Dev' } : {}) },
        via: 'listener', url: listener.url, status: 200, durationMs: expect.any(Number), answer: expect.any(String),
      });
      const verified = listener.verified.at(-1)!;
      expect(verified.event).toEqual(sent.event);
      expect(verified.eventId).toBe(sent.eventId);
      expect(verified.claims).toEqual(expect.objectContaining({ appId: app.id, userId: developerId, jti: sent.eventId, route: 'listener' }));
    }
    expect(listener.verified).toHaveLength(listenerEvents.length);

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

  it("offers the app's own command and button, takes overrides or a payload, and sends widget events to the widget URL", async () => {
    const widgets = await startWidgetPages(app);
    try {
      const integrations = {
        slashCommands: [
          { name: 'ship', description: 'Ship it', action: { type: 'sendEvent' } },
          { name: 'board', action: { type: 'openWidget', url: `${widgets.origin}/board`, desktopType: 'sidebar' } },
        ],
        chatTabButton: { name: 'Status', action: { type: 'sendEvent' } },
        previewDomains: ['*.tracker.test'],
      };
      const file = join(dir.dir, 'integrations.json');
      writeFileSync(file, JSON.stringify(integrations));
      expect((await runCli(['app', 'integrations', '--app', app.id, '--file', file, ...on])).code).toBe(0);
      listener.verifyAs(app.id, app.secret, { onEvent: (event) => (event.name === 'client.slashCommand' ? { text: `/${event.command} ${event.text}` } : undefined) });

      // Its own first command, its own button, a preview link on its own domain.
      const own = await runCliJson(['trigger', 'client.slashCommand', '--app', app.id, ...on]);
      expect(own).toMatchObject({ via: 'listener', event: { command: 'ship' }, status: 200 });
      expect((await runCliJson(['trigger', 'client.pressButton', '--app', app.id, ...on])).event).toEqual(expect.objectContaining({ button: 'chatTabButton' }));
      expect((await runCliJson(['trigger', 'client.pressButton', '--app', app.id, ...on])).event).not.toHaveProperty('buttonId');
      expect((await runCliJson(['trigger', 'chat.generateUrlPreview', '--app', app.id, ...on])).event.url).toBe('https://www.tracker.test/');

      // Overrides: the text, an attachment button's id, the chat (named as events name it).
      const overridden = await runCliJson(['trigger', 'client.slashCommand', '--app', app.id, '--text', 'to production', '--chat', developerId, ...on]);
      expect(overridden.event).toMatchObject({ command: 'ship', text: 'to production', chat: developerId, chatName: 'Dana Dev' });
      expect(overridden.answer).toBe('{"text":"/ship to production"}');
      expect((await runCliJson(['trigger', 'client.pressButton', '--app', app.id, '--button-id', 'approve-7', ...on])).event).toMatchObject({ button: 'attachmentButton', buttonId: 'approve-7' });
      const noChat = await runCli(['trigger', 'client.slashCommand', '--app', app.id, '--chat', 'g:nosuchchannel234', '--json', ...on]);
      expect(JSON.parse(noChat.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringMatching(/^--chat: There is no chat/) });

      // A payload: the whole event, checked as the platform would send it.
      const payloadFile = join(dir.dir, 'payload.json');
      writeFileSync(payloadFile, JSON.stringify({ ...eventExamples['client.slashCommand'], command: 'deploy', text: 'from a file' }));
      expect((await runCliJson(['trigger', 'client.slashCommand', '--app', app.id, '--payload', payloadFile, ...on])).event).toMatchObject({ command: 'deploy', text: 'from a file', userId: developerId });
      writeFileSync(payloadFile, JSON.stringify({ command: 'deploy' }));
      const bad = await runCli(['trigger', 'client.slashCommand', '--app', app.id, '--payload', payloadFile, '--json', ...on]);
      expect(JSON.parse(bad.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringMatching(/^--payload: The test client\.slashCommand is not one the platform would send/) });

      // A command that opens a widget: its URL is loaded, signed, and the listener hears nothing.
      const before = listener.received.length;
      const widget = await runCliJson(['trigger', 'client.slashCommand', '--app', app.id, '--command', 'board', '--text', 'this week', ...on]);
      expect(widget).toMatchObject({ via: 'widget', url: expect.stringContaining(`${widgets.origin}/board?`), status: 200, answer: 'verified client.slashCommand /board this week as sidebar' });
      const attachment = await runCliJson(['trigger', 'client.openAttachmentWidget', '--app', app.id, '--url', `${widgets.origin}/chart`, ...on]);
      expect(attachment).toMatchObject({ via: 'widget', status: 200, answer: 'verified client.openAttachmentWidget as attachment' });
      expect(listener.received.length).toBe(before);
      const noUrl = await runCli(['trigger', 'client.openAttachmentWidget', '--app', app.id, '--json', ...on]);
      expect(JSON.parse(noUrl.stdout)).toEqual({ error: 'InvalidOption', description: '--url is required and must not be empty.' });
    } finally {
      await widgets.close();
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
