import { eventTokenLifetimeSeconds, flockNamedEvent, flockWidgetParams, widgetParams, type ServiceClient, type ServiceWidgetType, type WidgetEvent } from '@aviary/protocol';
import { ApiError } from '../errors.js';
import { newEventId } from '../events/ids.js';
import { recordWidgetOpen } from '../events/delivery/widgetOpens.js';
import { signEventToken } from '../events/signing/tokens.js';
import { appReceives } from '../events/subscriptions.js';
import type { AppsTable } from '../store/schema.js';
import type { CoreContext } from './context.js';
import { originOf, registeredOrigins } from './registeredOrigins.js';

export type WidgetUrlInput = {
  appId: string;
  url: string;
  event: WidgetEvent;
  client: ServiceClient;
  widgetType: ServiceWidgetType;
  /** The request field the URL came from, if it came from the request: the error names it. */
  parameter?: string;
} & (
  | { route: 'widget' }
  /** A browser URL carries the event only when the app asked for it; it goes to a registered origin all the same. */
  | { route: 'browser'; sendContext: boolean }
);

/**
 * The URL a client opens for an `openWidget` / `openBrowser` action or an attachment widget
 * (docs/reference/widgets.md): the configured URL plus the event, a token that lives 24 hours, the
 * client and the widget type.
 * The URL's own query stays. The token is for `route` and for exactly the `serviceEvent` value, and only
 * ever goes to an origin the app's developer registered: this is the one place that checks it.
 */
export async function buildWidgetUrl(ctx: Pick<CoreContext, 'db' | 'now'>, input: WidgetUrlInput, jti = newEventId(ctx.now())): Promise<string> {
  return (await widgetUrl(ctx, input, jti)).url;
}

/** The URL, and whether it carries the event (an open of it then goes in the app's delivery log). */
async function widgetUrl(ctx: Pick<CoreContext, 'db' | 'now'>, input: WidgetUrlInput, jti: string): Promise<{ url: string; carriesEvent: boolean }> {
  const app = await findApp(ctx, input.appId);
  const url = requireRegisteredOrigin(app, input.url, input.parameter);
  // Without the event, a page opens as any page does: the app did not ask for it, or did not subscribe to it.
  if ((input.route === 'browser' && !input.sendContext) || !appReceives(app, input.event.name)) return { url: input.url, carriesEvent: false };
  // An app with Flock-compatible naming gets the event under Flock's names, in both parameters alike.
  const flockNaming = app.flock_naming === 1;
  const serviceEvent = JSON.stringify(flockNaming ? flockNamedEvent(input.event) : input.event);
  const now = ctx.now();
  const token = signEventToken(
    app.secret,
    { appId: app.id, userId: input.event.userId, jti, route: input.route, content: serviceEvent },
    eventTokenLifetimeSeconds.widget,
    now,
  );
  // URLSearchParams gives back exactly this string, so the app's digest is over the same bytes.
  const values = { event: serviceEvent, token, client: input.client, widgetType: input.widgetType };
  for (const names of flockNaming ? [widgetParams, flockWidgetParams] : [widgetParams]) {
    for (const [key, value] of Object.entries(values)) url.searchParams.set(names[key as keyof typeof values], value);
  }
  return { url: url.toString(), carriesEvent: true };
}

/**
 * The URL a person's client opens, as `buildWidgetUrl` makes it, recorded in the app's delivery log when
 * the event goes along (events/delivery/widgetOpens.ts), under the token's `jti`.
 */
export async function openWidgetUrl(ctx: Pick<CoreContext, 'db' | 'now' | 'events'>, input: WidgetUrlInput): Promise<string> {
  const eventId = newEventId(ctx.now());
  const { url, carriesEvent } = await widgetUrl(ctx, input, eventId);
  if (carriesEvent) await recordWidgetOpen(ctx, { eventId, appId: input.appId, event: input.event, url: new URL(url) });
  return url;
}

type AppForWidgets = Pick<AppsTable, 'id' | 'secret' | 'listener_url' | 'configuration_url' | 'integrations' | 'allowed_origins' | 'flock_naming' | 'event_subscriptions'>;

function findApp(ctx: Pick<CoreContext, 'db'>, appId: string): Promise<AppForWidgets> {
  return ctx.db
    .selectFrom('apps')
    .select(['id', 'secret', 'listener_url', 'configuration_url', 'integrations', 'allowed_origins', 'flock_naming', 'event_subscriptions'])
    .where('id', '=', appId)
    .executeTakeFirstOrThrow();
}

/** The URL, parsed, when its origin is one the app's developer registered; else OriginNotAllowed. */
function requireRegisteredOrigin(app: AppForWidgets, url: string, parameter: string | undefined): URL {
  const origin = originOf(url);
  if (origin !== undefined && registeredOrigins(app).has(origin)) return new URL(url);
  const shown = origin ?? url;
  throw new ApiError(
    'OriginNotAllowed',
    `App ${app.id} may only open URLs on origins its developer registered (its listener, configuration and integration URLs, ` +
      `and its allowed origins); ${shown} is not one of them. The app's developer can add ${shown} to the app's allowed origins.`,
    { ...(parameter !== undefined ? { parameter } : {}), origin: shown },
  );
}
