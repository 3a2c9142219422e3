/**
 * Deferred replies (docs/reference/events.md, "Replying later: responseUrl"): a `client.*` event that
 * reached the listener carries a `responseUrl`, to which the app may POST up to 5 replies within 30
 * minutes, however (and however late) it answered the event itself.
 */
import { AviaryApiError, type responseRoutes, type RouteParamsOf } from '@aviary/protocol';

/**
 * A reply: `text` (with `serviceml` and `attachments` as chat.sendMessage takes them), to the person
 * alone (`responseType: 'ephemeral'`, the default) or to the chat (`'inChat'`); or, with
 * `replaceOriginal: true`, the new content of the app's message whose button or `<action>` was used.
 */
export type ResponseReply = Omit<RouteParamsOf<typeof responseRoutes.respond>, 'token'>;

/** What the service answers a reply: the message's uid, and how many more replies the URL takes. */
export interface ResponseResult {
  uid: string;
  repliesLeft: number;
}

export interface RespondOptions {
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/** POSTs one reply to an event's `responseUrl`; throws AviaryApiError when the service refuses it. */
export async function respondTo(responseUrl: string, reply: ResponseReply, options: RespondOptions = {}): Promise<ResponseResult> {
  if (typeof responseUrl !== 'string' || !/^https?:\/\//.test(responseUrl)) {
    throw new TypeError('respond needs the event’s responseUrl; this event has none (it went to a widget, or the service is older)');
  }
  const response = await (options.fetch ?? fetch)(responseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(reply),
    signal: options.signal,
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    body = { description: text.slice(0, 200) };
  }
  if (!response.ok) throw new AviaryApiError(response.status, body);
  return body as unknown as ResponseResult;
}
