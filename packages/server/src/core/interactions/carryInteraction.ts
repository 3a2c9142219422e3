import {
  isWidgetEvent,
  maxToastLength,
  type Action,
  type ClientEvent,
  type InteractionAnswer,
  type ServiceClient,
  type ServiceWidgetType,
} from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import type { CoreContext } from '../context.js';
import { deliverSynchronously } from '../../events/delivery/sync.js';
import { openWidgetUrl } from '../widgetUrl.js';
import { requireWidgetAccess } from './appAccess.js';
import { withResponseUrl } from '../responses/responseUrls.js';

export interface Interaction {
  appId: string;
  action: Action;
  event: ClientEvent;
  client: ServiceClient;
}

/**
 * Carries an event where the integration's action says (docs/reference/widgets.md): `sendEvent` waits
 * for the listener's answer (`clientEventTimeoutMs`, never retried), `openWidget` and `openBrowser` hand
 * the client a URL carrying the event, signed, and only for a person who installed the app and has it
 * enabled (the callers have checked that the person sees the chat or message). An event too large for
 * a URL (`client.messageAction`, not a widget event) goes to the listener whatever the action says.
 */
export async function carryInteraction(ctx: CoreContext, { appId, action, event, client }: Interaction): Promise<InteractionAnswer> {
  if (action.type === 'sendEvent' || !isWidgetEvent(event)) return askListener(ctx, appId, event);
  await requireWidgetAccess(ctx.db, event.userId, appId);
  const url = requireUrl(action);
  if (action.type === 'openWidget') {
    const desktopType = action.desktopType ?? 'modal';
    const mobileType = action.mobileType ?? 'modal';
    const widgetType: ServiceWidgetType = client === 'desktop' ? desktopType : mobileType;
    return { kind: 'openWidget', url: await openWidgetUrl(ctx, { appId, url, route: 'widget', event, client, widgetType, parameter: event.name === 'client.widgetAction' ? 'url' : undefined }), desktopType, mobileType };
  }
  // A browser tab has the whole window, as a modal does; the event goes along only when the app asked for it.
  return { kind: 'openBrowser', url: await openWidgetUrl(ctx, { appId, url, route: 'browser', sendContext: action.sendContext === true, event, client, widgetType: 'modal', parameter: event.name === 'client.widgetAction' ? 'url' : undefined }) };
}

async function askListener(ctx: CoreContext, appId: string, event: ClientEvent): Promise<InteractionAnswer> {
  const timeoutMs = ctx.events.settings.clientEventTimeoutMs;
  // The app may reply later, or again, through the event's responseUrl (core/responses/).
  const delivered = await withResponseUrl(ctx, appId, event);
  const delivery = await deliverSynchronously(ctx, { appId, userId: event.userId, event: delivered, timeoutMs });
  // The app chose not to hear of it: there is nothing to wait for.
  if (!delivery.ok && delivery.reason === 'not_subscribed') return { kind: 'none' };
  if (!delivery.ok) throw new ApiError('AppUnreachable', `The app did not take ${event.name}: ${delivery.description}.`);
  const text = toastText(delivery.body);
  return text === undefined ? { kind: 'none' } : { kind: 'toast', text };
}

/** The answer's `text`, cut to the toast's length (by characters, so no emoji is split). */
function toastText(body: unknown): string | undefined {
  const text = typeof body === 'object' && body !== null ? (body as { text?: unknown }).text : undefined;
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  return Array.from(text).slice(0, maxToastLength).join('');
}

/** Validation of integrations and ServiceML makes open* actions carry a URL; a row without one is a bug. */
function requireUrl(action: Action): string {
  if (!action.url) throw new Error(`an ${action.type} action without a url reached carryInteraction`);
  return action.url;
}
