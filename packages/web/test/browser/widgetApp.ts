import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AviaryEvent, EventTokenClaims } from '@aviary/protocol';
import { createEventListener, verifyWidgetRequest, type EventListener } from '@aviary/sdk';
import type { AppsTable } from '../../../server/src/store/schema.js';
import type { TestServer } from '../../../server/test/helpers/server.js';

/** An event the app's listener accepted (the SDK verified its token with the app's id and secret). */
export interface ListenerEvent {
  event: AviaryEvent;
  claims: EventTokenClaims;
}

/** A widget or browser page the app served: what the SDK's verifier made of the page's own query string. */
export interface WidgetVisit {
  path: string;
  verified: boolean;
  event?: AviaryEvent;
  widgetType?: string;
  client?: string;
  claims?: EventTokenClaims;
  error?: string;
}

/**
 * A real app on loopback, as an app developer writes one: POST /events is @aviary/sdk's
 * createEventListener with the app's secret, and GET /widget/<name> is a page whose server checks its
 * own URL with the SDK's verifyWidgetRequest before it trusts `serviceEvent`, writes the verdict into
 * the page (`#verification`, read by the test inside the frame or tab) and records it here. The page
 * includes the server's /widget.js and has three buttons calling `Aviary.openWidget`,
 * `Aviary.openBrowser` and `Aviary.close`.
 */
export interface WidgetApp {
  app: AppsTable;
  origin: string;
  events: ListenerEvent[];
  visits: WidgetVisit[];
  /** What the listener answers (a toast, an attachment…); replace at will. */
  answer: (event: AviaryEvent) => unknown;
  waitForEvent(name: string, match?: (event: ListenerEvent) => boolean): Promise<ListenerEvent>;
  waitForVisit(path: string): Promise<WidgetVisit>;
  /** Resolves with the visits of `path` once there are `count` of them. */
  waitForVisits(path: string, count: number): Promise<WidgetVisit[]>;
  close(): Promise<void>;
}

/** Waits are bounded well under the test's time-out, so a missing event names itself. */
const WAIT_MS = 8000;

export async function startWidgetApp(
  t: TestServer,
  input: { teamId: string; developerId: string; name: string; integrations: (origin: string) => unknown },
): Promise<WidgetApp> {
  const events: ListenerEvent[] = [];
  const visits: WidgetVisit[] = [];
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const wake of [...waiters]) wake();
  };
  let listener: EventListener | undefined;
  let credentials: { appId: string; appSecret: string } | undefined;

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://app.invalid').pathname;
    if (req.method === 'POST' && path === '/events' && listener) return listener.node(req, res);
    if (req.method === 'GET' && path.startsWith('/widget/') && credentials) return void serveWidget(req, res, path, credentials);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function serveWidget(req: IncomingMessage, res: ServerResponse, path: string, app: { appId: string; appSecret: string }) {
    let visit: WidgetVisit;
    try {
      const verified = await verifyWidgetRequest(req.url!, app);
      visit = { path, verified: true, event: verified.event as AviaryEvent, widgetType: verified.widgetType, client: verified.client, claims: verified.claims };
    } catch (error) {
      visit = { path, verified: false, error: (error as Error).message };
    }
    visits.push(visit);
    changed();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(widgetPage(t.url, visit));
  }

  const widgetApp: WidgetApp = {
    app: await t.f.app(input.teamId, input.developerId, { name: input.name, listenerUrl: `${origin}/events`, integrations: input.integrations(origin) }),
    origin,
    events,
    visits,
    answer: () => undefined,
    waitForEvent: (name, match = () => true) => until(() => events.find((each) => each.event.name === name && match(each)), `the app to receive ${name}`),
    waitForVisit: (path) => until(() => visits.find((visit) => visit.path === path), `a visit of ${path}`),
    waitForVisits: (path, count) =>
      until(() => {
        const found = visits.filter((visit) => visit.path === path);
        return found.length >= count ? found : undefined;
      }, `${count} visits of ${path}`),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  credentials = { appId: widgetApp.app.id, appSecret: widgetApp.app.secret };
  listener = createEventListener({
    ...credentials,
    onError: () => undefined,
    onEvent: async (event, context) => {
      events.push({ event, claims: context.claims });
      changed();
      return (await widgetApp.answer(event)) as never;
    },
  });

  function until<T>(find: () => T | undefined, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found === undefined) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`waited ${WAIT_MS} ms for ${what}; events: ${events.map((each) => each.event.name).join(', ')}; visits: ${visits.map((each) => each.path).join(', ')}`));
      }, WAIT_MS);
      waiters.add(check);
      check();
    });
  }
  return widgetApp;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function widgetPage(aviaryUrl: string, visit: WidgetVisit): string {
  const verdict = visit.verified ? `Verified: ${visit.event!.name} as ${visit.widgetType} on ${visit.client}` : `Refused: ${visit.error}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Relay ${escapeHtml(visit.path)}</title>
<style>body { font: 15px/1.5 system-ui, sans-serif; margin: 20px; color: #1c1f26; background: #fff; } h1 { font-size: 20px; margin: 0 0 8px; }
button { font: inherit; padding: 6px 12px; margin: 8px 6px 0 0; border: 1px solid #c5cad3; border-radius: 6px; background: #f6f7f9; }</style></head>
<body><main>
<h1>Relay</h1>
<p id="verification">${escapeHtml(verdict)}</p>
<button type="button" id="open-widget">Open the details</button>
<button type="button" id="open-browser">Open in a tab</button>
<button type="button" id="close">Done</button>
</main>
<script src="${escapeHtml(aviaryUrl)}/widget.js"></script>
<script>
document.getElementById('open-widget').onclick = function () { Aviary.openWidget(location.origin + '/widget/details', 'modal'); };
document.getElementById('open-browser').onclick = function () { Aviary.openBrowser(location.origin + '/widget/tab', true); };
document.getElementById('close').onclick = function () { Aviary.close(); };
</script>
</body></html>`;
}
