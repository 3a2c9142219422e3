/**
 * Widget and browser URLs (docs/reference/widgets.md): the service appends the event, its token, the client and the
 * widget type to the configured URL. Verify on the app's server, which holds the app secret; a widget
 * page must never carry the secret to the browser. The token signs the digest of the exact
 * `serviceEvent` value; `serviceClient` and `serviceWidgetType` are not signed (layout hints only).
 */
import {
  isWidgetEventName,
  serviceClients,
  serviceWidgetTypes,
  widgetEventNames,
  widgetParams,
  type ServiceClient,
  type ServiceWidgetType,
} from '@aviary/protocol';
import type { EventTokenClaims, WidgetEvent } from '../types.js';
import { verifyEventToken } from './verify.js';

export interface WidgetRequest {
  event: WidgetEvent;
  token: string;
  client: ServiceClient;
  widgetType: ServiceWidgetType;
}

export interface VerifiedWidgetRequest extends WidgetRequest {
  claims: EventTokenClaims;
}

export interface VerifyWidgetRequestOptions {
  appId: string;
  appSecret: string;
  /** The current time in milliseconds since the epoch (default `Date.now`). */
  now?: () => number;
  clockToleranceSeconds?: number;
}

/** A widget URL lacks a parameter or carries one that cannot be read; `parameter` names it. */
export class WidgetRequestError extends Error {
  override readonly name = 'WidgetRequestError';

  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

// Lets a server pass a request's path and query (`req.url`) as well as a full URL.
const relativeBase = 'http://widget.invalid';

/** Reads the widget parameters without checking the token; use `verifyWidgetRequest` before trusting them. */
export function parseWidgetRequest(url: string | URL): WidgetRequest {
  return readWidgetRequest(url).request;
}

/**
 * Parses the URL and verifies its token (rejects with `EventTokenError`): a widget or browser token
 * (never a listener's), signed for exactly this `serviceEvent`, whose `userId` must be the event's.
 */
export async function verifyWidgetRequest(url: string | URL, options: VerifyWidgetRequestOptions): Promise<VerifiedWidgetRequest> {
  const { request, serviceEvent } = readWidgetRequest(url);
  const claims = await verifyEventToken(request.token, {
    ...options,
    userId: request.event.userId,
    route: ['widget', 'browser'],
    content: serviceEvent,
  });
  return { ...request, claims };
}

/** The parameters, and `serviceEvent` as it stands in the URL: the value the token's digest is of. */
function readWidgetRequest(url: string | URL): { request: WidgetRequest; serviceEvent: string } {
  const query = new URL(url, relativeBase).searchParams;
  const serviceEvent = requiredParam(query, widgetParams.event);
  const request: WidgetRequest = {
    event: readEvent(serviceEvent),
    token: requiredParam(query, widgetParams.token),
    client: oneOf(query, widgetParams.client, serviceClients),
    widgetType: oneOf(query, widgetParams.widgetType, serviceWidgetTypes),
  };
  return { request, serviceEvent };
}

function requiredParam(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null || value === '') throw new WidgetRequestError(name, `the widget URL has no ${name} parameter`);
  return value;
}

function oneOf<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T {
  const value = requiredParam(query, name);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new WidgetRequestError(name, `${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  }
  return value as T;
}

function readEvent(json: string): WidgetEvent {
  const name = widgetParams.event;
  let event: unknown;
  try {
    event = JSON.parse(json);
  } catch (error) {
    throw new WidgetRequestError(name, `${name} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new WidgetRequestError(name, `${name} must be a JSON object`);
  }
  const fields = event as Record<string, unknown>;
  if (!isWidgetEventName(fields.name)) {
    throw new WidgetRequestError(
      name,
      `${name} names ${JSON.stringify(fields.name)}; a widget receives only ${widgetEventNames.join(', ')}`,
    );
  }
  if (typeof fields.userId !== 'string' || fields.userId === '') {
    throw new WidgetRequestError(name, `${name} has no userId`);
  }
  return event as WidgetEvent;
}
