/**
 * The app's event listener (reference §5.2): verifies the event token, dispatches the event to a typed
 * handler and acknowledges it. One framework-free core, `handle`, decides every answer; `node`,
 * `fastify` and `express` only read the body and write that answer.
 *
 * The acknowledgement contract:
 * - 200 `{}`: the event was handled, or ignored because no handler wants it.
 * - 200 `{attachment}`: a `chat.generateUrlPreview` handler returned an attachment.
 * - 200 `{text}`: a `client.*` handler returned a toast.
 * - 400 / 413: the body is not a readable event (the service does not retry).
 * - 403 `InvalidEventToken`: the token is missing, forged, expired, or for another app or user.
 * - 500: the handler threw, so the service retries the event; with `X-Service-No-Retry: 1` when it threw
 *   a `NoRetryError`. The body never carries the error itself; `onError` receives it.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyPluginCallback } from 'fastify';
import type { Attachment } from '@aviary/serviceml';
import { eventHeaders, isEventName, type AviaryEvent, type EventName, type EventOf, type EventTokenClaims } from '@aviary/protocol';
import { EventTokenError, verifyEventToken } from './verify.js';

export interface EventContext {
  /** The verified token's claims. */
  claims: EventTokenClaims;
  /** The event's id (`X-Service-Event-Id`, else the token's `jti`): the same on every retry, to de-duplicate on. */
  eventId: string;
  /** 0 on the first attempt. */
  retryNum: number;
  /** Why the previous attempt failed (`timeout`, `connection_failed`, `http_error`, `rate_limited`). */
  retryReason?: string;
}

/** A short message the client shows to the user who acted (at most 100 characters). */
export interface ToastAnswer {
  text: string;
}

type ClientEventName = Extract<EventName, `client.${string}`>;

/** What a handler may return: an attachment to a URL preview, a toast to a `client.*` event, else nothing. */
export type EventAnswer<N extends EventName> = N extends 'chat.generateUrlPreview'
  ? Attachment | undefined
  : N extends ClientEventName
    ? ToastAnswer | undefined
    : undefined;

export type EventHandler<N extends EventName> = (
  event: EventOf<N>,
  ctx: EventContext,
) => EventAnswer<N> | void | Promise<EventAnswer<N> | void>;

export type EventHandlers = { [N in EventName]?: EventHandler<N> };

export type AnyEventHandler = (
  event: AviaryEvent,
  ctx: EventContext,
) => EventAnswer<EventName> | void | Promise<EventAnswer<EventName> | void>;

export interface EventListenerOptions {
  appId: string;
  appSecret: string;
  on?: EventHandlers;
  /** Receives every event that has no handler in `on`. */
  onEvent?: AnyEventHandler;
  /** Told about every handler that throws (default: `console.error`). */
  onError?: (error: unknown, event: AviaryEvent) => void;
  /** The largest body read, in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** The current time in milliseconds since the epoch, for token expiry (default `Date.now`). */
  now?: () => number;
  clockToleranceSeconds?: number;
}

/** Throw it from a handler to fail the event for good: answered 500 with `X-Service-No-Retry: 1`. */
export class NoRetryError extends Error {
  constructor(message = 'the app will not handle this event', options?: ErrorOptions) {
    super(message, options);
    this.name = 'NoRetryError';
  }
}

/** A request as `handle` needs it: the headers and the body already decoded from JSON. */
export interface EventRequest {
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** The answer `handle` decided on; adapters write it as JSON. */
export interface ListenerAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface FastifyListenerOptions {
  /** Where the plugin registers its POST route (default '/'). */
  path?: string;
}

type NextFunction = (error?: unknown) => void;

export interface EventListener {
  handle(request: EventRequest): Promise<ListenerAnswer>;
  /** A request listener for `http.createServer`; answers 405 to anything but POST. */
  node: (req: IncomingMessage, res: ServerResponse) => void;
  /** Registers `POST <path>`; the body parsing it sets up stays inside the plugin. */
  fastify: FastifyPluginCallback<FastifyListenerOptions>;
  /** Middleware for `app.post(path, listener.express)`; uses `req.body` when a body parser already ran. */
  express: (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: NextFunction) => void;
}

const defaultBodyLimit = 1024 * 1024;
const jsonContentType = 'application/json; charset=utf-8';

export function createEventListener(options: EventListenerOptions): EventListener {
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit;
  const onError = options.onError ?? ((error, event) => console.error(`aviary: the ${event.name} handler failed`, error));

  async function handle({ headers, body }: EventRequest): Promise<ListenerAnswer> {
    if (!isEventShaped(body)) {
      return refusal(400, 'InvalidRequestData', 'the body must be an event object with a string "name" and "userId"');
    }
    const token = headerValue(headers, eventHeaders.token);
    if (!token) return refusal(403, 'InvalidEventToken', `the ${eventHeaders.token} header is missing`);
    let claims: EventTokenClaims;
    try {
      claims = await verifyEventToken(token, {
        appId: options.appId,
        appSecret: options.appSecret,
        userId: body.userId,
        now: options.now,
        clockToleranceSeconds: options.clockToleranceSeconds,
      });
    } catch (error) {
      if (error instanceof EventTokenError) return refusal(403, 'InvalidEventToken', error.message);
      throw error;
    }

    if (!isEventName(body.name)) return answer(200, {});
    const event = body as AviaryEvent;
    const handler = (options.on?.[event.name] as AnyEventHandler | undefined) ?? options.onEvent;
    if (!handler) return answer(200, {});
    const ctx: EventContext = {
      claims,
      eventId: headerValue(headers, eventHeaders.eventId) || claims.jti,
      retryNum: Number.parseInt(headerValue(headers, eventHeaders.retryNum) ?? '0', 10) || 0,
      retryReason: headerValue(headers, eventHeaders.retryReason),
    };
    try {
      return answer(200, answerBody(event.name, await handler(event, ctx)));
    } catch (error) {
      onError(error, event);
      const failure = refusal(500, 'InternalServerError', `the app failed to handle ${event.name}`);
      if (error instanceof NoRetryError) failure.headers[eventHeaders.noRetry] = '1';
      return failure;
    }
  }

  async function handleRaw(headers: IncomingHttpHeaders, raw: Uint8Array | undefined): Promise<ListenerAnswer> {
    const parsed = parseJsonBody(raw);
    return 'answer' in parsed ? parsed.answer : handle({ headers, body: parsed.value });
  }

  function serveNode(req: IncomingMessage & { body?: unknown }, res: ServerResponse): void {
    const answered =
      req.body !== undefined
        ? answerParsed(req.headers, req.body)
        : readNodeBody(req, bodyLimit).then((raw) => (raw === tooLarge ? tooLargeAnswer(bodyLimit) : handleRaw(req.headers, raw)));
    answered.then(
      (result) => writeAnswer(res, result),
      (error) => {
        console.error('aviary: the event listener failed', error);
        writeAnswer(res, refusal(500, 'InternalServerError', 'the event listener failed'));
      },
    );
  }

  /** A framework's body parser may hand over a Buffer or a string instead of a decoded value. */
  function answerParsed(headers: IncomingHttpHeaders, body: unknown): Promise<ListenerAnswer> {
    if (typeof body === 'string') return handleRaw(headers, new TextEncoder().encode(body));
    if (body instanceof Uint8Array) return handleRaw(headers, body);
    return handle({ headers, body });
  }

  const fastify: FastifyPluginCallback<FastifyListenerOptions> = (instance, pluginOptions, done) => {
    // Encapsulated: the host app's own parsers and error handler are untouched.
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, raw, parsed) => parsed(null, raw));
    instance.setErrorHandler((error: { statusCode?: number }, _request, reply) => {
      const result =
        error.statusCode === 413
          ? tooLargeAnswer(bodyLimit)
          : error.statusCode !== undefined && error.statusCode < 500
            ? refusal(400, 'InvalidRequestData', 'the request could not be read')
            : refusal(500, 'InternalServerError', 'the event listener failed');
      reply.code(result.status).headers(result.headers).send(result.body);
    });
    instance.post(pluginOptions.path ?? '/', async (request, reply) => {
      const result = await handleRaw(request.headers, request.body as Uint8Array | undefined);
      return reply.code(result.status).headers(result.headers).send(result.body);
    });
    done();
  };

  return {
    handle,
    node: (req, res) => {
      if (req.method !== 'POST') {
        writeAnswer(res, { ...refusal(405, 'HTTPMethodNotAllowed', 'events are delivered with POST'), headers: { allow: 'POST' } });
        return;
      }
      serveNode(req, res);
    },
    fastify,
    express: (req, res, next) => {
      if (req.method !== 'POST') return next();
      serveNode(req, res);
    },
  };
}

function isEventShaped(body: unknown): body is { name: string; userId: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { name, userId } = body as Record<string, unknown>;
  return typeof name === 'string' && typeof userId === 'string';
}

function answerBody(name: EventName, result: unknown): Record<string, unknown> {
  if (result === undefined || result === null) return {};
  if (name === 'chat.generateUrlPreview') return { attachment: result };
  if (name.startsWith('client.')) return { text: (result as ToastAnswer).text };
  return {};
}

function answer(status: number, body: Record<string, unknown>): ListenerAnswer {
  return { status, headers: {}, body };
}

function refusal(status: number, error: string, description: string): ListenerAnswer {
  return answer(status, { error, description });
}

/** Closes the connection rather than read the rest of a body nobody wants. */
function tooLargeAnswer(bodyLimit: number): ListenerAnswer {
  return { ...refusal(413, 'RequestTooLarge', `the body is larger than ${bodyLimit} bytes`), headers: { connection: 'close' } };
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseJsonBody(raw: Uint8Array | undefined): { value: unknown } | { answer: ListenerAnswer } {
  if (!raw || raw.length === 0) return { answer: refusal(400, 'InvalidRequestData', 'the body is empty; an event is a JSON object') };
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return { answer: refusal(400, 'InvalidRequestData', 'the body is not valid UTF-8') };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { answer: refusal(400, 'InvalidRequestData', `the body is not valid JSON: ${(error as Error).message}`) };
  }
}

const tooLarge = Symbol('tooLarge');

function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array | typeof tooLarge> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > limit) {
      req.resume();
      resolve(tooLarge);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve(tooLarge);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function writeAnswer(res: ServerResponse, result: ListenerAnswer): void {
  const body = JSON.stringify(result.body);
  res.writeHead(result.status, {
    ...result.headers,
    'content-type': jsonContentType,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
