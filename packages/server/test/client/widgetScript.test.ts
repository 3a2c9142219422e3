import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { http } from './harness.js';

/** Runs the served script in a fake window whose parent records what it is posted. */
function loadWidgetScript(source: string, global = 'Aviary') {
  const posted: Array<{ message: unknown; targetOrigin: string }> = [];
  const window: Record<string, any> = { parent: { postMessage: (message: unknown, targetOrigin: string) => posted.push({ message, targetOrigin }) } };
  runInNewContext(source, { window });
  return { aviary: window[global], posted: () => posted.map(({ message, targetOrigin }) => ({ message: JSON.parse(JSON.stringify(message)), targetOrigin })) };
}

describe('/widget.js', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await stopTestServer(t);
  });

  it('is served as JavaScript to anyone, without a session', async () => {
    const result = await http(t.url, 'GET', '/widget.js');
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(result.body).toContain('window.Aviary');
  });

  it('defines Aviary.openWidget, openBrowser and close, each posting one message to the parent window', async () => {
    const { aviary, posted } = loadWidgetScript((await http(t.url, 'GET', '/widget.js')).body);
    expect(Object.keys(aviary).sort()).toEqual(['close', 'openBrowser', 'openWidget']);
    aviary.openWidget('https://widgets.example.test/next', 'sidebar', 'modal');
    aviary.openWidget('https://widgets.example.test/plain');
    aviary.openBrowser('https://example.test/full', true);
    aviary.openBrowser('https://example.test/bare');
    aviary.close();
    expect(posted()).toEqual([
      { message: { type: 'aviary:openWidget', url: 'https://widgets.example.test/next', desktopType: 'sidebar', mobileType: 'modal' }, targetOrigin: '*' },
      { message: { type: 'aviary:openWidget', url: 'https://widgets.example.test/plain' }, targetOrigin: '*' },
      { message: { type: 'aviary:openBrowser', url: 'https://example.test/full', sendContext: true }, targetOrigin: '*' },
      { message: { type: 'aviary:openBrowser', url: 'https://example.test/bare', sendContext: false }, targetOrigin: '*' },
      { message: { type: 'aviary:close' }, targetOrigin: '*' },
    ]);
    expect(Object.isFrozen(aviary)).toBe(true);
  });

  it('is served as /flock.js under Flock’s global name, posting the same messages', async () => {
    const result = await http(t.url, 'GET', '/flock.js');
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    const { aviary: flock, posted } = loadWidgetScript(result.body, 'flock');
    expect(Object.keys(flock).sort()).toEqual(['close', 'openBrowser', 'openWidget']);
    flock.openWidget('https://widgets.example.test/next', 'modal');
    flock.close();
    expect(posted()).toEqual([
      { message: { type: 'aviary:openWidget', url: 'https://widgets.example.test/next', desktopType: 'modal' }, targetOrigin: '*' },
      { message: { type: 'aviary:close' }, targetOrigin: '*' },
    ]);
  });
});
