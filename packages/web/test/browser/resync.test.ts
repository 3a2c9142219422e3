import type { Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sendMessage } from '../../../server/src/core/commands/sendMessage.js';
import { pruneStream } from '../../../server/src/core/commands/pruneStream.js';
import { updateTeamSettings } from '../../../server/src/core/commands/teams.js';
import { cliActor } from '../../../server/src/core/audit/record.js';
import { noBrowser, openWatchedPage } from '../../../server/test/helpers/browser.js';
import { signInOn } from './cast.js';
import { webSuite } from './suite.js';

/**
 * A resync (the stream could not replay what the page missed) reloads the open chat's history and thread
 * in place, and the team as the sidebar shows it: the upload in progress and what was typed in the composers stay. The resync is the server's own: the
 * page's stream socket goes through the browser's WebSocket routing to the real server, and the test
 * cuts it, keeps the page from reconnecting while a message is sent and the stream's entries are pruned,
 * then lets it back, so the server answers its cursor with `resync`.
 */
const web = webSuite();

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });

/** A promise the test settles itself. */
function opening() {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe.skipIf(noBrowser)('a stream resync in the web client', () => {
  it('reloads the history, the thread and the team’s name without cancelling an upload in progress or losing the composers’ text', async () => {
    const { alice, bob, channel, team } = web.cast;
    const watched = await openWatchedPage(web.browser);
    const { page, context } = watched;

    let connected: WebSocketRoute | undefined;
    let held: WebSocketRoute | undefined;
    let holding = false;
    const fromServer: string[] = [];
    const reconnectHeld = opening();
    await context.routeWebSocket(/\/api\/stream/, (socket) => {
      if (holding) {
        // Left unanswered: the page waits for a hello that does not come until the test lets it go.
        held = socket;
        reconnectHeld.resolve();
        return;
      }
      const server = socket.connectToServer();
      server.onMessage((message) => {
        fromServer.push(String(message));
        socket.send(message);
      });
      connected = socket;
    });

    // The upload waits for the test: it is in progress while the stream resyncs.
    const uploadLetGo = opening();
    await context.route((url) => url.pathname === '/v1/files.upload', async (route) => {
      await uploadLetGo.promise;
      await route.continue();
    });

    const {
      message: { uid: question },
    } = await sendMessage(web.t.server.ctx, { user: bob, appId: null }, { to: channel.id, text: 'Which logo do we ship?' });
    await signInOn(page, web.t, alice.email!, 'Northwind');
    await page.getByRole('heading', { name: 'general', level: 1 }).waitFor();
    await expect.poll(() => fromServer.some((frame) => JSON.parse(frame).type === 'hello')).toBe(true);
    // A thread open beside the chat, a reply half typed in it.
    const asked = history(page).getByRole('article').filter({ hasText: 'Which logo do we ship?' });
    await asked.hover();
    await asked.getByRole('button', { name: /^Reply in a thread/ }).click();
    const thread = page.getByRole('complementary', { name: 'Thread', exact: true });
    const threadComposer = thread.getByRole('textbox', { name: 'Reply in the thread' });
    await threadComposer.fill('The round one');
    const composer = page.getByRole('textbox', { name: 'Message #general' });
    await composer.fill('The new logo, as promised');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('region', { name: 'general' }).getByRole('button', { name: 'Attach files' }).click()]);
    await chooser.setFiles({ name: 'logo.txt', mimeType: 'text/plain', buffer: Buffer.from('an aviary, drawn in ASCII\n') });
    const uploads = page.getByRole('list', { name: 'Files to send' });
    await uploads.getByRole('progressbar', { name: 'Uploading logo.txt' }).waitFor();

    // The stream drops; while the page cannot reconnect, a message comes and the entries it missed are pruned.
    holding = true;
    await connected!.close({ code: 1012, reason: 'cut by the test' });
    await reconnectHeld.promise;
    await sendMessage(web.t.server.ctx, { user: bob, appId: null }, { to: channel.id, text: 'Sent while Alice was away' });
    await sendMessage(web.t.server.ctx, { user: bob, appId: null }, { to: channel.id, text: 'Replied while Alice was away', threadParent: question });
    await updateTeamSettings(web.t.server.ctx, cliActor, { teamId: team.id, name: 'Northwind Trading' });
    await pruneStream(web.t.testStore.store.db, { now: Date.now() + 1000, retentionMs: 0 });
    holding = false;
    await held!.close({ code: 1012, reason: 'let go by the test' });

    // The server answers the old cursor with resync; the page reconnects afresh and reloads the history.
    await expect.poll(() => fromServer.map((frame) => JSON.parse(frame)).filter((frame) => frame.type === 'resync')).toEqual([{ type: 'resync', reason: 'tooFarBehind' }]);
    await history(page).getByText('Sent while Alice was away').waitFor();
    await thread.getByRole('list', { name: 'Replies' }).getByText('Replied while Alice was away').waitFor();
    await page.locator('.team-name[title="Northwind Trading"]').waitFor();
    // The upload is still in progress, and the composers still hold their text (the chat's would also come
    // back from its draft after a remount; the thread's has none).
    await uploads.getByRole('progressbar', { name: 'Uploading logo.txt' }).waitFor();
    expect(await composer.inputValue()).toBe('The new logo, as promised');
    expect(await threadComposer.inputValue()).toBe('The round one');

    uploadLetGo.resolve();
    await uploads.getByText('ready').waitFor();
    await composer.press('Enter');
    await history(page).getByRole('link', { name: /logo\.txt/ }).waitFor();
    const sent = await web.t.testStore.store.db.selectFrom('messages').select('text').where('chat_key', '=', channel.id).where('from_user_id', '=', alice.id).execute();
    expect(sent.map((row) => row.text)).toEqual(['The new logo, as promised']);
    watched.expectNoErrors();
    await context.close();
  });
});
