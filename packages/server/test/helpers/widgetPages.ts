import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWidgetRequest } from '@aviary/sdk';

/**
 * An app's widget pages on loopback: each GET verified with the SDK and answered with what it verified
 * (`verified client.slashCommand /board this week as sidebar`), or 403 with the SDK's reason.
 */
export async function startWidgetPages(app: { id: string; secret: string }): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    verifyWidgetRequest(req.url ?? '', { appId: app.id, appSecret: app.secret }).then(
      ({ event, widgetType }) => res.end(`verified ${event.name}${event.name === 'client.slashCommand' ? ` /${event.command} ${event.text}` : ''} as ${widgetType}`),
      (error: Error) => res.writeHead(403).end(error.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
