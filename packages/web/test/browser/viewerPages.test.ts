import { Readable } from 'node:stream';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { sendMessage } from '../../../server/src/core/commands/sendMessage.js';
import { receiveFile } from '../../../server/src/core/files/upload.js';
import type { UsersTable } from '../../../server/src/store/schema.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { settledAtBottom, signInPage } from './cast.js';
import { webSuite } from './suite.js';

/**
 * The image viewer goes through all of a chat's images, not only those of the history loaded: past the
 * first image loaded it lists the older ones with files.list, page after page (here two pages of 100
 * messages whose only file is a text file, then the images before them), and back again.
 */
let clock = Date.now() - 3_600_000;
const web = webSuite({ server: { now: () => clock } });

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });

/** A small PNG of one colour. */
const swatch = (red: number, green: number, blue: number) => sharp({ create: { width: 48, height: 32, channels: 3, background: { r: red, g: green, b: blue } } }).png().toBuffer();

async function stored(person: UsersTable, name: string, bytes: Buffer) {
  return receiveFile(web.t.server.ctx, { user: person, appId: null }, { stream: Readable.from([bytes]), filename: name }, { need: bytes.length, want: bytes.length, parameter: 'file' });
}

describe.skipIf(noBrowser)('the image viewer across a chat’s files', () => {
  it('goes back past the images loaded, through files.list pages, and forward again', async () => {
    const { alice, bob } = web.cast;
    const { channel } = await createChannel({ ...web.t.server.ctx, now: () => clock }, { user: alice, appId: null }, { name: 'gallery', type: 'public', members: [bob.id] });
    const send = async (text: string, files?: string[]) => {
      clock += 1_000;
      await sendMessage(web.t.server.ctx, { user: alice, appId: null }, { to: channel.id, text, ...(files ? { files } : {}) });
    };
    const image = async (index: number) => (await stored(alice, `photo-${index}.png`, await swatch(40 * index, 120, 200 - 30 * index))).id;

    // Oldest first: two images in one message, one in the next; 150 messages carrying only a text file;
    // 98 plain messages; then the two newest images, which the history's first page (100 messages) holds.
    await send('The first two', [await image(1), await image(2)]);
    await send('The third', [await image(3)]);
    const notes = (await stored(alice, 'notes.txt', Buffer.from('minutes of the meeting\n'))).id;
    for (let index = 1; index <= 150; index++) await send(`Notes ${index}`, [notes]);
    for (let index = 1; index <= 98; index++) await send(`Plain ${index}`);
    await send('The fourth', [await image(4)]);
    await send('The fifth', [await image(5)]);
    await web.t.server.ctx.background.settled();
    clock += 60_000;

    const watched = await signInPage(web.browser, web.t, bob.email!);
    const { page } = watched;
    const listed: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/v1/files.list')) listed.push(request.postDataJSON().cursor);
    });
    await page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
    await page.getByRole('heading', { name: 'gallery', level: 1 }).waitFor();
    await settledAtBottom(page);
    await history(page).getByRole('link', { name: 'View photo-5.png' }).click();

    const viewer = (name: string) => page.getByRole('dialog', { name });
    // Two loaded; more before them, still to load.
    await viewer('photo-5.png').getByText('2 of 2+').waitFor();
    await viewer('photo-5.png').getByRole('button', { name: 'Previous image' }).click();
    await viewer('photo-4.png').waitFor();
    // At the first image loaded, the pages before it load: the first brings only notes.txt, the second the images.
    await viewer('photo-4.png').getByText('4 of 5').waitFor();
    expect(listed).toHaveLength(2);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await viewer('photo-4.png').getByRole('button', { name: 'Previous image' }).click();
    await viewer('photo-3.png').getByText('3 of 5').waitFor();
    await page.keyboard.press('ArrowLeft');
    await viewer('photo-2.png').getByText('2 of 5').waitFor();
    await viewer('photo-2.png').getByRole('button', { name: 'Previous image' }).click();
    await viewer('photo-1.png').getByText('1 of 5').waitFor();
    expect(await viewer('photo-1.png').getByRole('button', { name: 'Previous image' }).isDisabled()).toBe(true);
    await viewer('photo-1.png').getByRole('img', { name: 'photo-1.png' }).evaluate((element) => (element as HTMLImageElement).decode());

    // And forward again, to the newest.
    for (const [index, name] of ['photo-2.png', 'photo-3.png', 'photo-4.png', 'photo-5.png'].entries()) {
      await page.keyboard.press('ArrowRight');
      await viewer(name).getByText(`${index + 2} of 5`).waitFor();
    }
    expect(await viewer('photo-5.png').getByRole('button', { name: 'Next image' }).isDisabled()).toBe(true);
    expect(listed).toHaveLength(2);
    watched.expectNoErrors();
    await watched.context.close();
  });
});
