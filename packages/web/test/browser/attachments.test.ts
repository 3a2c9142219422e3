import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { PASSWORD, signInPage, writeHistory } from './cast.js';
import { webSuite } from './suite.js';

/**
 * What an attachment shows in the real page: an `html` view rendered as authored (its own styles) from
 * its own document with its own strict policy, and still running nothing; images with their viewer,
 * downloads, the colour bar; and `visibleTo` respected.
 */
let images: Server | undefined;
let imageOrigin: string;

/** A 2×2 PNG, the only thing the image server serves. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

const AUTHORED_HTML = `<style>h2 { color: rgb(1, 2, 3); font-family: serif; }</style>
<h2>Release checklist</h2>
<p class="styled" style="color: rgb(10, 20, 30); background: rgb(250, 240, 230)">Styled as authored</p>
<script>document.body.dataset.ran = 'yes'; parent.__pwned = 1;</script>
<img src="x" onerror="document.body.dataset.ran = 'onerror'">`;

const web = webSuite({
  start: async () => {
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
    images = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    imageOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  },
  close: async () => images?.close(),
});

const signIn = (email: string, team?: string) => signInPage(web.browser, web.t, email, team);

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });

async function frameOf(page: Page, selector: string): Promise<Frame> {
  const frame = await (await page.locator(selector).elementHandle())?.contentFrame();
  if (!frame) throw new Error(`no frame at ${selector}`);
  return frame;
}

describe.skipIf(noBrowser)('attachments in the page', () => {
  it('an html view renders with its own styles from its own document, and runs nothing, framed or opened alone', async () => {
    await writeHistory(web.t, web.cast.channel, web.cast.alice, [
      { text: 'The checklist', attachments: JSON.stringify([{ title: 'Checklist', views: { html: { inline: AUTHORED_HTML, height: 160 } } }]) },
    ]);
    const { page, context, expectNoErrors } = await signIn(web.cast.bob.email!);
    await page.getByRole('link', { name: 'general' }).click();
    await history(page).getByText('The checklist').waitFor();

    const iframe = history(page).locator('iframe.attachment-html');
    expect(await iframe.getAttribute('sandbox')).toBe('');
    const frame = await frameOf(page, 'iframe.attachment-html');
    await frame.getByText('Styled as authored').waitFor();
    expect(await frame.locator('p.styled').evaluate((element) => getComputedStyle(element).color)).toBe('rgb(10, 20, 30)');
    expect(await frame.locator('p.styled').evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(250, 240, 230)');
    expect(await frame.locator('h2').evaluate((element) => getComputedStyle(element).color)).toBe('rgb(1, 2, 3)');
    expect(await frame.evaluate(() => ({ ran: document.body.dataset.ran ?? null, origin: self.origin }))).toEqual({ ran: null, origin: 'null' });
    expect(await page.evaluate(() => '__pwned' in window)).toBe(false);

    // Opened on its own (a link copied out of the frame), the document is still sandboxed by its policy.
    const response = await context.request.get(frame.url());
    expect(response.headers()['content-security-policy']).toMatch(/^sandbox; default-src 'none'; style-src 'unsafe-inline';/);
    expect(response.headers()['x-frame-options']).toBe('SAMEORIGIN');
    const alone = await context.newPage();
    await alone.goto(frame.url());
    await alone.getByText('Styled as authored').waitFor();
    expect(await alone.evaluate(() => ({ ran: document.body.dataset.ran ?? null, origin: self.origin }))).toEqual({ ran: null, origin: 'null' });
    await alone.close();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expectNoErrors();

    // Only for people who may see the message; a bad position names itself.
    const path = new URL(frame.url()).pathname;
    const anonymous = await fetch(`${web.t.url}${path}`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: 'NotSignedIn' });
    const carol = await web.t.f.person(web.cast.team.id, { firstName: 'Carol', lastName: 'Outsider', password: PASSWORD });
    const session = (await (await fetch(`${web.t.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: carol.email, password: PASSWORD }) })).json()) as { sessionToken: string };
    const asCarol = (url: string) => fetch(`${web.t.url}${url}`, { headers: { authorization: `Bearer ${session.sessionToken}` } });
    const hidden = await asCarol(path);
    expect(hidden.status).toBe(400);
    expect(await hidden.json()).toMatchObject({ error: 'InvalidParameter', parameter: 'messageUid' });
    const asBob = (url: string) => context.request.get(`${web.t.url}${url}`);
    for (const [bad, parameter] of [[path.replace('/0/html', '/1/html'), 'index'], [path.replace('/0/html', '/x/html'), 'index'], [`/attachments/${'A'.repeat(70)}/0/html`, 'messageUid']] as const) {
      const answer = await asBob(bad);
      expect(answer.status(), bad).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'InvalidParameter', parameter });
    }
    await context.close();
  });

  it('an image opens in the viewer; downloads and the colour bar show', async () => {
    await writeHistory(web.t, web.cast.channel, web.cast.alice, [
      {
        text: 'Screenshots of the release',
        attachments: JSON.stringify([
          {
            title: 'Dashboard',
            color: '#2e9e5b',
            views: { image: { original: { src: `${imageOrigin}/original.png`, width: 2, height: 2 }, thumbnail: { src: `${imageOrigin}/thumb.png` }, filename: 'dashboard.png' } },
            downloads: [{ src: `${imageOrigin}/report.pdf`, filename: 'report.pdf', size: 48_213 }],
          },
        ]),
      },
    ]);
    const { page, context, expectNoErrors } = await signIn(web.cast.bob.email!);
    await page.getByRole('link', { name: 'general' }).click();
    const card = history(page).getByRole('region', { name: 'Dashboard' });
    await card.waitFor();
    expect(await card.evaluate((element) => getComputedStyle(element).borderInlineStartColor)).toBe('rgb(46, 158, 91)');
    const thumbnail = card.getByRole('button', { name: 'View Dashboard' }).locator('img');
    expect(await thumbnail.getAttribute('src')).toBe(`${imageOrigin}/thumb.png`);
    await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 2, await thumbnail.elementHandle());

    await card.getByRole('button', { name: 'View Dashboard' }).click();
    const viewer = page.getByRole('dialog', { name: 'Dashboard' });
    await viewer.waitFor();
    expect(await viewer.locator('img').getAttribute('src')).toBe(`${imageOrigin}/original.png`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });

    const download = card.getByRole('list', { name: 'Downloads' }).getByRole('link', { name: /report\.pdf/ });
    expect(await download.getAttribute('href')).toBe(`${imageOrigin}/report.pdf`);
    expect(await download.getAttribute('download')).toBe('report.pdf');
    expect(await download.textContent()).toContain('47.1 KB');
    expectNoErrors();
    await context.close();
  });

  it('a message with visibleTo shows only to the people it names', async () => {
    // Written by a third person (a sender sees their own), for Alice alone.
    const dana = await web.t.f.person(web.cast.team.id, { firstName: 'Dana', lastName: 'Doe' });
    await writeHistory(web.t, web.cast.channel, dana, [
      { text: 'For Alice only: the rota', visible_to: JSON.stringify([web.cast.alice.id]) },
      { text: 'For everyone: lunch at noon' },
    ]);
    const bob = await signIn(web.cast.bob.email!);
    const alice = await signIn(web.cast.alice.email!, 'Northwind');
    for (const { page } of [bob, alice]) {
      await page.getByRole('link', { name: 'general' }).click();
      await history(page).getByText('For everyone: lunch at noon').waitFor();
    }
    await history(alice.page).getByText('For Alice only: the rota').waitFor();
    await history(alice.page).getByRole('article').filter({ hasText: 'For Alice only' }).getByText('Only visible to some').waitFor();
    expect(await history(bob.page).getByText('For Alice only: the rota').count()).toBe(0);
    bob.expectNoErrors();
    alice.expectNoErrors();
    await bob.context.close();
    await alice.context.close();
  });
});
