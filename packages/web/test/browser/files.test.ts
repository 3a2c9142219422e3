import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser, seriousAccessibilityViolations, type WatchedPage } from '../../../server/test/helpers/browser.js';
import { forgetRefusal, settledAtBottom, signInPage } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * Files in the web client (issue 24), two people at once: Alice attaches an image with a caption through
 * the composer's button (its progress bar seen, the upload slowed by Chromium's own throttling), pastes a
 * second one and drops a document on the conversation; Bob sees each live, opens the viewer, zooms and
 * goes through the chat's images. An upload cancelled halfway leaves nothing, on the server either; the
 * server's refusals show on the file's row in words a person can act on.
 */
const MAX_FILE_BYTES = 3 * 1024 * 1024;
const web = webSuite({ config: { files: { maxFileBytes: MAX_FILE_BYTES } } });

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });
const uploads = (page: Page) => page.getByRole('list', { name: 'Files to send' });

/** A gradient as an uncompressed PNG: large enough that its upload takes a while when throttled. */
async function gradientPng(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set([40 + (x * 180) / width, 70 + (y * 120) / height, 200 - (x * 90) / width], (y * width + x) * 3);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

/** A drawing (an SVG rendered by sharp): shapes on a light ground. */
const sketchPng = (width: number, height: number) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fdf6e3"/>` +
        `<circle cx="${width * 0.3}" cy="${height * 0.5}" r="${height * 0.28}" fill="#e0a030"/>` +
        `<rect x="${width * 0.55}" y="${height * 0.25}" width="${width * 0.3}" height="${height * 0.5}" rx="24" fill="#3346d3"/></svg>`,
    ),
  )
    .png()
    .toBuffer();

/** A second of a 440 Hz tone, as a WAV file (8 kHz, 8-bit mono). */
function toneWav(): Buffer {
  const samples = Buffer.from(Array.from({ length: 8000 }, (_, index) => Math.round(128 + 100 * Math.sin((2 * Math.PI * 440 * index) / 8000))));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

/** Uploads go out at `bytesPerSecond` (Chromium's network emulation), or unthrottled with -1. */
async function throttleUploads(watched: WatchedPage, bytesPerSecond: number): Promise<void> {
  const cdp = await watched.context.newCDPSession(watched.page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
}

/** Picks files through the composer's attach button, as a person does. */
async function attach(page: Page, files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Attach files' }).click()]);
  await chooser.setFiles(files);
}

async function openChannel(name: string) {
  const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name, purpose: 'Pictures and documents', type: 'public', members: [web.cast.bob.id] });
  const open = async (watched: WatchedPage) => {
    await watched.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
    await watched.page.getByRole('heading', { name, level: 1 }).waitFor();
    return watched;
  };
  return { channel, open };
}

describe.skipIf(noBrowser)('files in the web client', () => {
  it('Alice shares images and a document; Bob sees them live and goes through the images in the viewer', async () => {
    const { open } = await openChannel('design');
    const alice = await open(await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind'));
    const bob = await open(await signInPage(web.browser, web.t, web.cast.bob.email!));

    // An image with a caption, through the attach button, slowed down so its progress shows.
    const logo = await gradientPng(480, 320);
    await throttleUploads(alice, 64 * 1024);
    await alice.page.getByRole('textbox', { name: 'Message #design' }).fill('The new logo');
    const uploadRequest = alice.page.waitForRequest((request) => new URL(request.url()).pathname === '/v1/files.upload');
    await attach(alice.page, [{ name: 'logo.png', mimeType: 'image/png', buffer: logo }]);
    // The size goes ahead of the body: checked before a byte, and on S3 the file is stored in one piece.
    expect(new URL((await uploadRequest).url()).searchParams.get('size')).toBe(String(logo.length));
    const progress = uploads(alice.page).getByRole('progressbar', { name: 'Uploading logo.png' });
    await expect.poll(() => progress.evaluate((bar) => (bar as HTMLProgressElement).value)).toBeGreaterThan(0);
    await saveScreenshot(alice.page, 'files-composer-progress');
    // Enter while it uploads: the message goes once the file is up.
    await alice.page.getByRole('textbox', { name: 'Message #design' }).press('Enter');
    await alice.page.getByText('Sending once the files are uploaded…').waitFor();
    await throttleUploads(alice, -1);

    const bobsLogo = history(bob.page).getByRole('link', { name: 'View logo.png' });
    await bobsLogo.waitFor();
    await history(bob.page).getByRole('article').filter({ hasText: 'The new logo' }).getByRole('link', { name: 'View logo.png' }).waitFor();
    await expect.poll(() => bobsLogo.locator('img').evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await uploads(alice.page).count()).toBe(0);

    // A second image pasted from the clipboard, sent without a caption: only the image shows.
    const sketch = await sketchPng(900, 600);
    await alice.page.getByRole('textbox', { name: 'Message #design' }).evaluate((box, bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'sketch.png', { type: 'image/png' }));
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    }, [...sketch]);
    await uploads(alice.page).getByText('ready').waitFor();
    await alice.page.getByRole('textbox', { name: 'Message #design' }).press('Enter');
    await history(bob.page).getByRole('link', { name: 'View sketch.png' }).waitFor();
    expect(await history(bob.page).getByText('sketch.png', { exact: true }).count()).toBe(0);

    // A document and a sound dropped on the conversation: a card with its name and size that downloads
    // it, and a player (the page's policy lets it play the server's media; the server answers its Range).
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(20 * 1024 - 9, 0x20)]);
    const transfer = await alice.page.evaluateHandle(
      ([document, sound]) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(document)], 'quarterly-report.pdf', { type: 'application/pdf' }));
        data.items.add(new File([new Uint8Array(sound)], 'chime.wav', { type: 'audio/wav' }));
        return data;
      },
      [[...pdf], [...toneWav()]],
    );
    const conversation = history(alice.page);
    await conversation.dispatchEvent('dragenter', { dataTransfer: transfer });
    await alice.page.getByText('Drop files to share them in #design').waitFor();
    await conversation.dispatchEvent('drop', { dataTransfer: transfer });
    await expect.poll(() => uploads(alice.page).getByText('ready').count()).toBe(2);
    await alice.page.getByRole('textbox', { name: 'Message #design' }).fill('Numbers for Q3');
    await alice.page.getByRole('textbox', { name: 'Message #design' }).press('Enter');
    const card = history(bob.page).getByRole('link', { name: 'Download quarterly-report.pdf, 20 KB' });
    await card.waitFor();
    expect(await card.getAttribute('download')).toBe('quarterly-report.pdf');
    const downloaded = await bob.context.request.get(`${web.t.url}${await card.getAttribute('href')}`);
    expect(downloaded.status()).toBe(200);
    expect((await downloaded.body()).equals(pdf)).toBe(true);
    const player = history(bob.page).locator('audio[aria-label="chime.wav"]');
    await expect.poll(() => player.evaluate((audio) => (audio as HTMLAudioElement).readyState)).toBeGreaterThanOrEqual(1);
    expect(await player.evaluate((audio) => Math.round((audio as HTMLAudioElement).duration))).toBe(1);
    await settledAtBottom(bob.page);
    await saveScreenshot(bob.page, 'files-message');

    // The viewer: zoom with the buttons, the keys and the wheel; next and previous; Escape closes.
    await bobsLogo.click();
    const viewer = bob.page.getByRole('dialog', { name: 'logo.png' });
    await viewer.getByText('1 of 2').waitFor();
    const zoom = viewer.getByRole('status', { name: 'Zoom' });
    const image = viewer.getByRole('img', { name: 'logo.png' });
    await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const fitted = await image.evaluate((element) => element.clientWidth);
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => image.evaluate((element) => element.clientWidth)).toBeGreaterThan(fitted);
    const zoomedIn = await zoom.textContent();
    await bob.page.keyboard.press('+');
    await expect.poll(() => zoom.textContent()).not.toBe(zoomedIn);
    const afterKey = await zoom.textContent();
    await viewer.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(() => zoom.textContent()).toBe(zoomedIn);
    await image.hover();
    await bob.page.mouse.wheel(0, -100);
    await expect.poll(() => zoom.textContent()).toBe(afterKey);
    await bob.page.keyboard.press('0');
    await expect.poll(() => image.evaluate((element) => element.clientWidth)).toBe(fitted);
    expect(await viewer.getByRole('button', { name: 'Fit' }).getAttribute('aria-pressed')).toBe('true');

    await viewer.getByRole('button', { name: 'Next image' }).click();
    const second = bob.page.getByRole('dialog', { name: 'sketch.png' });
    await second.getByText('2 of 2').waitFor();
    expect(await second.getByRole('button', { name: 'Next image' }).isDisabled()).toBe(true);
    await second.getByRole('img', { name: 'sketch.png' }).evaluate((element) => (element as HTMLImageElement).decode());
    expect(await seriousAccessibilityViolations(bob.page)).toEqual([]);
    await saveScreenshot(bob.page, 'files-viewer');
    await bob.page.keyboard.press('ArrowLeft');
    await viewer.getByText('1 of 2').waitFor();
    await bob.page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    alice.expectNoErrors();
    bob.expectNoErrors();
    await alice.context.close();
    await bob.context.close();
  });

  it('an upload cancelled halfway sends nothing and leaves nothing; refusals show on the file’s row', async () => {
    const { channel, open } = await openChannel('drafts');
    const alice = await open(await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind'));
    const files = () => web.t.testStore.store.db.selectFrom('files').select(['name', 'state']).where('name', 'in', ['halfway.bin', 'huge.bin', 'cat.png']).execute();

    await throttleUploads(alice, 64 * 1024);
    await attach(alice.page, [{ name: 'halfway.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(2 * 1024 * 1024, 7) }]);
    const progress = uploads(alice.page).getByRole('progressbar', { name: 'Uploading halfway.bin' });
    await expect.poll(() => progress.evaluate((bar) => (bar as HTMLProgressElement).value)).toBeGreaterThan(0);
    // The server has begun to store it (its row is written before its first byte).
    await expect.poll(files).toEqual([{ name: 'halfway.bin', state: 'uploading' }]);
    expect(await alice.page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    await uploads(alice.page).getByRole('button', { name: 'Cancel the upload of halfway.bin' }).click();
    await uploads(alice.page).waitFor({ state: 'detached' });
    expect(await alice.page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    // The server saw the connection close and removed what it had.
    await expect.poll(files).toEqual([]);
    await throttleUploads(alice, -1);

    // Refused: too large for the server, and a name that claims an image its bytes are not.
    await attach(alice.page, [
      { name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(MAX_FILE_BYTES + 1024 * 1024, 1) },
      { name: 'cat.png', mimeType: 'image/png', buffer: Buffer.from('<html><script>alert(1)</script></html>') },
    ]);
    await uploads(alice.page)
      .getByRole('listitem', { name: 'huge.bin' })
      .getByText('Too large: this server takes files of at most 3 MB. Share a smaller file, or split it.')
      .waitFor();
    await uploads(alice.page).getByRole('listitem', { name: 'cat.png' }).getByText(/Its name says an image.*Rename it with the right extension/).waitFor();
    expect(await alice.page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    forgetRefusal(alice, 413);
    forgetRefusal(alice, 415);
    await uploads(alice.page).getByRole('button', { name: 'Remove huge.bin' }).click();
    await uploads(alice.page).getByRole('button', { name: 'Remove cat.png' }).click();
    await uploads(alice.page).waitFor({ state: 'detached' });

    const sent = await web.t.testStore.store.db.selectFrom('messages').select('uid').where('chat_key', '=', channel.id).execute();
    expect(sent).toEqual([]);
    expect(await files()).toEqual([]);
    alice.expectNoErrors();
    await alice.context.close();
  });
});
