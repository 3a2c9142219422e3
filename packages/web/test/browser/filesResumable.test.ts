import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser } from '../../../server/test/helpers/browser.js';
import { signInPage } from './cast.js';
import { webSuite } from './suite.js';

/**
 * A large file from the web client goes in parts (files.startUpload, files.uploadPart, files.finishUpload):
 * when the connection drops in the middle of a part, the page asks the server where to go on from
 * (files.getUpload) and the file arrives whole, once, for the other person too.
 */
const web = webSuite();
const history = (page: Page) => page.getByRole('region', { name: 'Message history' });

describe.skipIf(noBrowser)('large files from the web client', () => {
  it('go in parts and resume after a dropped connection', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'recordings', type: 'public', members: [web.cast.bob.id] });
    const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind');
    const bob = await signInPage(web.browser, web.t, web.cast.bob.email!);
    for (const watched of [alice, bob]) {
      await watched.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
      await watched.page.getByRole('heading', { name: 'recordings', level: 1 }).waitFor();
    }

    // 9 MiB of log lines: three parts of at most 4 MiB. The first part's connection is cut once.
    const line = 'GET /healthz 200 0.4 ms\n';
    const bytes = Buffer.from(line.repeat(Math.ceil((9 * 1024 * 1024) / line.length)));
    const calls: string[] = [];
    alice.page.on('request', (request) => {
      const method = /\/v1\/(files\.\w+)/.exec(request.url())?.[1];
      if (method) calls.push(method === 'files.uploadPart' ? `${method}@${new URL(request.url()).searchParams.get('offset')}` : method);
    });
    let cut = false;
    await alice.page.route('**/v1/files.uploadPart**', async (route) => {
      if (cut) return route.continue();
      cut = true;
      await route.abort('connectionreset');
    });
    await alice.page.getByRole('textbox', { name: 'Message #recordings' }).fill('Last night’s access log');
    const [chooser] = await Promise.all([alice.page.waitForEvent('filechooser'), alice.page.getByRole('button', { name: 'Attach files' }).click()]);
    await chooser.setFiles({ name: 'access.log', mimeType: 'text/plain', buffer: bytes });
    await alice.page.getByRole('list', { name: 'Files to send' }).getByText('ready').waitFor({ timeout: 60_000 });
    await alice.page.getByRole('textbox', { name: 'Message #recordings' }).press('Enter');

    const card = history(bob.page).getByRole('link', { name: /^Download access\.log, / });
    await card.waitFor();
    expect(calls).toEqual(['files.startUpload', 'files.uploadPart@0', 'files.getUpload', 'files.uploadPart@0', 'files.uploadPart@4194304', 'files.uploadPart@8388608', 'files.finishUpload']);
    // The bytes Bob downloads are the file, once.
    const href = await card.getAttribute('href');
    const downloaded = await bob.page.evaluate(async (url) => {
      const body = new Uint8Array(await (await fetch(url)).arrayBuffer());
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
      return { length: body.length, sha256: [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('') };
    }, href!);
    expect(downloaded).toEqual({ length: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    const stored = await web.t.testStore.store.db.selectFrom('files').select('size').where('name', '=', 'access.log').execute();
    expect(stored.map((row) => Number(row.size))).toEqual([bytes.length]);
    // The one error Alice's page logged is the browser's own line for the connection cut.
    expect(alice.errors).toEqual(['console: Failed to load resource: net::ERR_CONNECTION_RESET']);
    bob.expectNoErrors();
    await Promise.all([alice.context.close(), bob.context.close()]);
  });
});
