import { expect, it } from 'vitest';
import { dangerousUrls, linkOnlyUrls, markupVectors } from '../../../serviceml/test/xssCorpus.js';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser, openWatchedPage } from '../../../server/test/helpers/browser.js';
import { PASSWORD, webCast, writeHistory } from './cast.js';
import { browserSuite } from './suite.js';

/**
 * The XSS corpus of the ServiceML tests, written straight into the store (no API would accept it) as
 * message text, as ServiceML, and in every URL-bearing place of an attachment, then shown in the real
 * page. Nothing may run: alert/confirm/prompt are counted, payloads of our own set a global flag, the
 * CSP would log a refused inline script as a console error, and the DOM must hold no event handler
 * attribute and no script-bearing URL.
 */
const PWN = 'window.__pwned=1';
const ownVectors = [
  `<img src=x onerror="${PWN}">`,
  `<serviceml><b onmouseover="${PWN}">x</b></serviceml>`,
  `"><script>${PWN}</script>`,
  `<svg><script>${PWN}</script></svg>`,
];

// The corpus is written past every check, so the answers that carry it break their schemas on purpose:
// this server does not check results (config.checkResults), as a production server does not.
const web = browserSuite({ config: { checkResults: false } });

it.skipIf(noBrowser)('renders every vector of the XSS corpus with 0 executions', async () => {
  const { team, alice, bob } = await webCast(web.t);
  const { channel } = await createChannel(web.t.server.ctx, { user: alice, appId: null }, { name: 'xss', type: 'public', members: [bob.id] });
  const urls = [...dangerousUrls, ...linkOnlyUrls];
  const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const messages = [
    ...[...markupVectors, ...ownVectors].map((vector) => ({ text: vector, serviceml: vector })),
    ...urls.map((url) => ({
      text: `link ${url}`,
      serviceml: `<serviceml><a href="${attribute(url)}">link</a> <action id="a" type="openBrowser" url="${attribute(url)}">act</action></serviceml>`,
      attachments: JSON.stringify([
        {
          id: 'a1',
          title: 'attached',
          url,
          color: '#ff0000" onmouseover="' + PWN,
          views: { image: { original: { src: url }, thumbnail: { src: url } } },
          downloads: [{ src: url, filename: `<img src=x onerror="${PWN}">` }],
        },
        { id: 'a2', title: 'html', views: { html: { inline: `<script>parent.${PWN}</script><img src=x onerror="parent.${PWN}">` } } },
        { id: 'a3', title: 'serviceml', views: { serviceml: `<serviceml><a href="${attribute(url)}">x</a></serviceml>` } },
      ]),
    })),
  ];
  await writeHistory(web.t, { id: channel.id, team_id: team.id }, bob, messages, 1000);

  const { page, expectNoErrors, context } = await openWatchedPage(web.browser, { height: 20_000 });
  await page.addInitScript(() => {
    const counted = window as unknown as { __executions: number };
    counted.__executions = 0;
    for (const name of ['alert', 'confirm', 'prompt', 'print'] as const) {
      (window as unknown as Record<string, unknown>)[name] = () => {
        counted.__executions++;
      };
    }
  });
  await page.goto(`${web.t.url}/`);
  await page.getByLabel('Email').fill(alice.email!);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('radio', { name: 'Northwind' }).check();
  await page.getByRole('button', { name: 'Sign in to this team' }).click();
  await page.getByRole('link', { name: 'xss' }).click();
  const history = page.getByRole('region', { name: 'Message history' });
  await history.getByText(`link ${urls.at(-1)}`, { exact: true }).waitFor();

  // The view is taller than the whole history, so the virtualized list has every row in the DOM at once
  // (it renders a contiguous range: the beginning and the newest message in it means all between too).
  await history.getByText('This is the very beginning of the conversation.').waitFor();
  expect(await history.getByText(`link ${urls.at(-1)}`, { exact: true }).isVisible()).toBe(true);
  // Every message, the beginning and a day's separator (two, should the messages span midnight).
  expect(await history.getByRole('listitem').count()).toBeGreaterThanOrEqual(messages.length + 2);
  const offences = await page.evaluate(domOffences);
  expect(offences).toEqual([]);
  expect(await page.evaluate(() => ({ executions: (window as unknown as { __executions: number }).__executions, pwned: 'pwned' in window || '__pwned' in window }))).toEqual({
    executions: 0,
    pwned: false,
  });
  expectNoErrors();
  await context.close();
});

/** In the page: what an injection would leave in the DOM. */
function domOffences(): string[] {
  const found: string[] = [];
  for (const element of document.querySelectorAll('#root [role="region"][aria-label="Message history"] *')) {
    for (const { name, value } of element.attributes) {
      if (name.startsWith('on')) found.push(`${element.tagName} ${name}`);
      if (['href', 'src', 'action', 'formaction', 'data', 'data-action-url'].includes(name) && !/^(https?:|mailto:|\/|$)/i.test(value.trim())) found.push(`${element.tagName} ${name}=${value}`);
    }
    if (['SCRIPT', 'OBJECT', 'EMBED', 'BASE', 'META', 'LINK', 'STYLE', 'SVG', 'MATH', 'FORM'].includes(element.tagName.toUpperCase()))
      found.push(`<${element.tagName}>`);
    if (element.tagName === 'IFRAME' && !(element as HTMLIFrameElement).sandbox.length && element.getAttribute('sandbox') === null) found.push('an unsandboxed iframe');
    if (element.tagName === 'IFRAME' && (element as HTMLIFrameElement).sandbox.contains('allow-same-origin') && (element as HTMLIFrameElement).srcdoc) found.push('srcdoc with allow-same-origin');
    if (element.classList.contains('attachment-html') && ['allow-scripts', 'allow-same-origin'].some((right) => (element as HTMLIFrameElement).sandbox.contains(right))) found.push('an html attachment with scripts or same-origin rights');
  }
  return found;
}
