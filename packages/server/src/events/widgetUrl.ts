import { eventTokenLifetimeSeconds, widgetParams, type ServiceClient, type ServiceWidgetType } from '@aviary/protocol';
import type { ServerContext } from '../context.js';
import { newEventId } from './ids.js';
import { signEventToken } from './tokens.js';

/**
 * The URL a client opens for an `openWidget` / `openBrowser` action (reference §5.3): the configured URL
 * plus the event, a token that lives 24 hours, the client and the widget type. The URL's own query stays.
 */
export async function buildWidgetUrl(
  ctx: ServerContext,
  input: { appId: string; url: string; event: Record<string, unknown>; client: ServiceClient; widgetType: ServiceWidgetType },
): Promise<string> {
  const app = await ctx.db.selectFrom('apps').select(['id', 'secret']).where('id', '=', input.appId).executeTakeFirstOrThrow();
  const now = ctx.now();
  const token = signEventToken(
    app.secret,
    { appId: app.id, userId: String(input.event.userId), jti: newEventId(now) },
    eventTokenLifetimeSeconds.widget,
    now,
  );
  const url = new URL(input.url);
  url.searchParams.set(widgetParams.event, JSON.stringify(input.event));
  url.searchParams.set(widgetParams.token, token);
  url.searchParams.set(widgetParams.client, input.client);
  url.searchParams.set(widgetParams.widgetType, input.widgetType);
  return url.toString();
}
