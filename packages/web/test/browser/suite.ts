import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { ConfigInput } from '../../../server/src/config.js';
import { launchBrowser, noBrowser } from '../../../server/test/helpers/browser.js';
import { startTestServer, stopTestServer, type TestServer, type TestServerOptions } from '../../../server/test/helpers/server.js';
import { webCast } from './cast.js';

/** What a browser test file works with: a server of its own (SQLite, port 0) and Chromium. */
export interface BrowserSuite {
  t: TestServer;
  browser: Browser;
}

/** A browser suite whose server also has the web cast (cast.ts): Alice, Bob and their channel. */
export interface WebSuite extends BrowserSuite {
  cast: Awaited<ReturnType<typeof webCast>>;
}

interface SuiteOptions<S> {
  /** The server's configuration beyond the test defaults. */
  config?: ConfigInput;
  /** The server's clock and log, when the file moves time by hand or reads what the server logs. */
  server?: TestServerOptions;
  /** What the file starts besides (apps, listeners), once the server and the browser are up. */
  start?: (suite: S) => Promise<void>;
  /** What the file closes besides, before the browser and the server. */
  close?: () => Promise<unknown>;
}

/**
 * The one setup of a browser test file: before its tests, a server and Chromium (and what `start` adds);
 * after them, everything closed. Without Chromium nothing starts, and the file's tests skip (noBrowser).
 */
export function browserSuite(options: SuiteOptions<BrowserSuite> = {}): BrowserSuite {
  return suite(options, async () => undefined);
}

/** A browserSuite whose server has the web cast. */
export function webSuite(options: SuiteOptions<WebSuite> = {}): WebSuite {
  return suite(options, async (t) => ({ cast: await webCast(t) }));
}

function suite<S extends BrowserSuite>(options: SuiteOptions<S>, extra: (t: TestServer) => Promise<Omit<S, keyof BrowserSuite> | undefined>): S {
  const started = {} as S;
  beforeAll(async () => {
    if (noBrowser) return;
    started.t = await startTestServer('sqlite', options.config, options.server);
    Object.assign(started, await extra(started.t));
    started.browser = await launchBrowser();
    await options.start?.(started);
  });
  afterAll(async () => {
    if (noBrowser) return;
    await options.close?.();
    await started.browser?.close();
    if (started.t) await stopTestServer(started.t);
  });
  return started;
}

const SCREENSHOTS = fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url));

/**
 * Takes a picture of the docs: the page as it is, animations stopped, to docs/screenshots/<name>.png.
 * Each name belongs to one test: the test that shows that screen, so that two runs never write the same
 * picture.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, animations: 'disabled' });
}
