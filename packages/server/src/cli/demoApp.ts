import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { echoDirectMessages } from '../../../../examples/echo-bot/app.js';
import { pollApp } from '../../../../examples/poll/app.js';
import { previewLinks } from '../../../../examples/url-preview/app.js';
import { updateApp } from '../core/commands/apps.js';
import { cliActor } from '../core/audit/record.js';
import { storeContext } from '../core/context.js';
import type { DemoCredentials } from '../core/commands/seedDemo.js';
import type { Db } from '../store/store.js';

/** The one domain whose links the demo app previews. */
export const DEMO_PREVIEW_DOMAIN = 'docs.example.com';

const DEMO_TIPS = `Message the demo app's bot and it answers the same; /poll Lunch? | Pizza | Sushi asks the channel; a link to ${DEMO_PREVIEW_DOMAIN} gets a preview.`;

export interface RunningDemoApp {
  /** Where the demo app's listener is (its events URL). */
  url: string;
  close(): Promise<void>;
}

/**
 * The demo team's app, run in the server's process with a real listener on a loopback port, so that a new
 * team sees every app surface at once: its bot echoes direct messages (examples/echo-bot), `/poll` opens a
 * compose widget and posts a poll whose buttons count votes (examples/poll), links to
 * DEMO_PREVIEW_DOMAIN get a preview (examples/url-preview), a "Demo tips" tab button and a "Count words"
 * message action answer toasts. The app's listener URL and integrations are
 * pointed at this listener at every start (its port is new each time). The app talks to the server as any
 * app does: over HTTP, with its secret and its bot's token.
 */
export async function startDemoApp(db: Db, serverUrl: string, app: DemoCredentials['app'], now: number): Promise<RunningDemoApp> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const demo = pollApp({ appId: app.id, appSecret: app.secret, botToken: app.botToken, baseUrl: serverUrl });
  echoDirectMessages(demo.app);
  previewLinks(demo.app, DEMO_PREVIEW_DOMAIN);
  // The client's own buttons: a tab in every chat's header, and an action on messages, each answering a toast.
  demo.app.event('client.pressButton', async () => ({ text: DEMO_TIPS }));
  demo.app.event('client.messageAction', async (event) => {
    const words = (event.messages ?? []).reduce((sum, message) => sum + message.text.split(/\s+/).filter(Boolean).length, 0);
    return { text: `${words} word${words === 1 ? '' : 's'} in ${event.messageUids.length} message${event.messageUids.length === 1 ? '' : 's'}` };
  });
  handle = demo.node;

  await updateApp(storeContext(db, () => now), cliActor, {
    appId: app.id,
    description: `The demo app, run by the server: its bot echoes direct messages, /poll asks the channel, and links to ${DEMO_PREVIEW_DOMAIN} get a preview.`,
    listenerUrl: `${origin}/events`,
    integrations: {
      slashCommands: [{ name: 'poll', description: 'Ask the channel: /poll Lunch? | Pizza | Sushi', action: { type: 'openWidget', url: `${origin}/widget`, desktopType: 'modal' } }],
      chatTabButton: { name: 'Demo tips', action: { type: 'sendEvent' } },
      messageAction: { name: 'Count words', action: { type: 'sendEvent' } },
      previewDomains: [DEMO_PREVIEW_DOMAIN],
    },
  });
  return {
    url: `${origin}/events`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}
