import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLog } from '../../src/log.js';
import { clientCast, closeSdkApps } from '../client/harness.js';
import { captureLog, type LogLine } from '../helpers/logs.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';

const integrations = {
  slashCommands: [{ name: 'weather', action: { type: 'sendEvent' } }],
  previewDomains: ['preview.example.test'],
};

// What is logged does not depend on the store, so one dialect is enough.
describe('synchronous deliveries in the log name the request that caused them', () => {
  const log = captureLog();
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer('sqlite', {}, { log: createLog({ logLevel: 'info' }, log.destination) });
  });
  afterAll(async () => {
    await stopTestServer(t);
    await closeSdkApps();
  });

  const syncLine = (appId: string, event: string) => (line: LogLine) => line.appId === appId && line.event === event && line.synchronous === true;

  it('a slash command, an install, and the URL preview of a message sent', async () => {
    const { alice, bob, channel, app } = await clientCast(t, integrations);

    const command = await alice.call('chat.sendFromComposer', { to: channel.id, text: '/weather Paris' });
    expect(command.status).toBe(200);
    const commandLine = await log.waitFor(syncLine(app.id, 'client.slashCommand'));
    expect(commandLine.requestId).toBe(command.headers.get('x-request-id'));

    const install = await bob.call('apps.install', { appId: app.id });
    expect(install.status).toBe(200);
    const installLine = await log.waitFor(syncLine(app.id, 'app.install'));
    expect(installLine.requestId).toBe(install.headers.get('x-request-id'));

    const sent = await alice.call('chat.sendFromComposer', { to: channel.id, text: 'see https://preview.example.test/1' });
    expect(sent.status).toBe(200);
    await t.server.ctx.background.settled();
    const previewLine = await log.waitFor(syncLine(app.id, 'chat.generateUrlPreview'));
    expect(previewLine.requestId).toBe(sent.headers.get('x-request-id'));

    const ids = [command, install, sent].map((answer) => answer.headers.get('x-request-id'));
    expect(new Set(ids).size).toBe(3);
  });
});
