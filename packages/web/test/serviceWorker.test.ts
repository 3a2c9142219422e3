import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

/**
 * The service worker's click on a notification, each way it can go. The browser test (browser/webPush)
 * clicks with a tab of Aviary open; with none open the worker opens a window, which Chromium allows only
 * for a click a person made on a shown notification, never for a script-made event. So here the worker's
 * own script runs in a context of its own, with a stand-in for the global scope the browser gives it: the
 * window clients it finds, and what it asks of them.
 */
const script = readFileSync(new URL('../public/assets/sw.js', import.meta.url), 'utf8');
const ORIGIN = 'https://chat.example';

interface Tab {
  url: string;
  posted: unknown[];
  focused: boolean;
}

function clickWith(tabs: Tab[], data: unknown) {
  const listeners = new Map<string, (event: unknown) => void>();
  const opened: string[] = [];
  const scope = {
    location: new URL(`${ORIGIN}/assets/sw.js`),
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    clients: {
      matchAll: async (options: unknown) => {
        expect(options).toEqual({ type: 'window', includeUncontrolled: true });
        return tabs.map((tab) => ({
          url: tab.url,
          postMessage: (message: unknown) => tab.posted.push(message),
          focus: async () => {
            tab.focused = true;
            return tab;
          },
        }));
      },
      openWindow: async (path: string) => {
        opened.push(path);
        return null;
      },
    },
  };
  runInNewContext(script, { self: scope, URL });
  let closed = false;
  const waits: Array<Promise<unknown>> = [];
  listeners.get('notificationclick')!({
    notification: { data, close: () => (closed = true) },
    waitUntil: (promise: Promise<unknown>) => waits.push(promise),
  });
  return Promise.all(waits).then(() => ({ opened, closed }));
}

const tab = (url: string): Tab => ({ url, posted: [], focused: false });

describe('the service worker, on a click on a notification', () => {
  it('opens a window at the message when no tab of Aviary is open, a tab of another site not counting', async () => {
    const elsewhere = tab('https://news.example/today');
    const { opened, closed } = await clickWith([elsewhere], { url: '/c/u%3Aalice?m=01JABCDEFGHJKMNPQRSTVWXYZ0' });
    expect(opened).toEqual(['/c/u%3Aalice?m=01JABCDEFGHJKMNPQRSTVWXYZ0']);
    expect(closed).toBe(true);
    expect(elsewhere).toMatchObject({ posted: [], focused: false });
  });

  it('brings an open tab of Aviary to the message instead, and opens nothing', async () => {
    const aviary = tab(`${ORIGIN}/c/g%3Ateam`);
    const { opened } = await clickWith([tab('https://news.example/'), aviary], { url: '/c/u%3Abob?m=01JABCDEFGHJKMNPQRSTVWXYZ1' });
    expect(opened).toEqual([]);
    expect(aviary).toEqual({ url: `${ORIGIN}/c/g%3Ateam`, posted: [{ type: 'aviary.openMessage', path: '/c/u%3Abob?m=01JABCDEFGHJKMNPQRSTVWXYZ1' }], focused: true });
  });

  it('opens the start page for a notification without a message', async () => {
    expect((await clickWith([], undefined)).opened).toEqual(['/']);
  });
});
