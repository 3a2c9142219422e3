import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The one way tests drive a real browser: Debian's Chromium through playwright-core. Without Chromium
 * a browser test file is skipped, except under CI, where a missing browser is a failure.
 */
export const CHROMIUM = '/usr/bin/chromium';
if (process.env.CI === 'true' && !existsSync(CHROMIUM)) throw new Error(`Chromium is required under CI=true but ${CHROMIUM} is missing (apt-get install -y chromium).`);
export const noBrowser = !existsSync(CHROMIUM);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A page whose console errors and uncaught errors are collected: a test ends with `expectNoErrors()`. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  errors: string[];
  expectNoErrors(): void;
}

export async function openWatchedPage(browser: Browser, options: { width?: number; height?: number; colorScheme?: 'light' | 'dark'; touch?: boolean } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    // A phone: taps, and nothing hovers (the page's `(hover: none)`).
    ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
  });
  const page = await context.newPage();
  // Well under a browser test's own time-out (vitest.config.ts), so a wait that never ends names what it
  // waited for; long enough for a step that takes seconds alone on a machine the run has loaded.
  page.setDefaultTimeout(30_000);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !expectedRefusal(message.text(), message.location().url)) errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  return { page, context, errors, expectNoErrors: () => expect(errors).toEqual([]) };
}

/**
 * Chromium logs every 4xx answer as a console error. One belongs to signing in as the API defines it:
 * POST /api/session answers 409 TeamRequired when the person must pick a team. Any other is an error
 * (GET /api/session answers a page nobody signed in on without an error status).
 */
function expectedRefusal(text: string, url: string): boolean {
  // What a sandboxed `html` attachment's document tried and was refused (its scripts; its relative
  // URLs, which lead nowhere): the sandbox and its policy at work.
  if (url === 'about:srcdoc' || /^Blocked script execution in 'about:srcdoc'/.test(text)) return true;
  if (ATTACHMENT_DOCUMENT.test(new URL(url, 'http://x').pathname) || /^Blocked script execution in '[^']*\/attachments\/[^/']+\/\d+\/html'/.test(text)) return true;
  return new URL(url, 'http://x').pathname === '/api/session' && /status of 409 /.test(text);
}

/** An `html` attachment's document, and what its relative URLs resolve to. */
const ATTACHMENT_DOCUMENT = /^\/attachments\/[^/]+\/\d+\//;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core run in the page: the serious and critical violations, as `rule: target` lines. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  // Evaluated, not added as a <script>: the page's CSP refuses inline scripts, as it should.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: Array<{ id: string; impact?: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(document);
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  });
}
