/**
 * The app's event listener (docs/reference/events.md): verifies the event token, dispatches the event to a typed
 * handler and acknowledges it. One framework-free core, `handle`, decides every answer from the headers
 * and the raw body bytes (the token signs their digest, so they must reach it unparsed); `node`,
 * `fastify` and `express` only read the body and write that answer.
 *
 * The acknowledgement contract:
 * - 200 `{}`: the event was handled, or ignored because no handler wants it.
 * - 200 `{attachment}`: a `chat.generateUrlPreview` handler returned an attachment.
 * - 200 `{text}`: a `client.*` handler returned a toast.
 * - 400 / 413: the body is not a readable event (the service does not retry).
 * - 403 `InvalidEventToken`: the token is missing, forged, expired, for another app or user, for another
 *   route (a widget's token), or signed for another body.
 * - 500: the handler threw, so the service retries the event; with `X-Service-No-Retry: 1` when it threw
 *   a `NoRetryError`. The body never carries the error itself; `onError` receives it.
 * Every refusal is also told to `logger.warn` with its reason, so that a wrong secret shows at once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { eventAnswerSchemas, eventHeaders, isEventName } from '@aviary/protocol';
import type { AnsweredEventName, AnswerBodyOf, AviaryEvent, EventName, EventOf, EventTokenClaims, ToastAnswer } from '../types.js';
import { fastifyPlugin, type FastifyListenerPlugin } from './listenerFastify.js';
import { headerValue, parseJsonBody, readNodeBody, tooLarge, writeAnswer, type EventRequest, type ListenerAnswer } from './listenerHttp.js';
import { EventTokenError, verifyEventToken } from './verify.js';

export type { EventRequest, ListenerAnswer } from './listenerHttp.js';
export type { FastifyInstanceLike, FastifyListenerOptions, FastifyListenerPlugin, FastifyReplyLike } from './listenerFastify.js';

export interface EventContext {
  /** The verified token's claims. */
  claims: EventTokenClaims;
  /**
   * The event's id, the signed `jti`: the same on every retry, to de-duplicate on. (The
   * `X-Service-Event-Id` header carries the same value but is not signed, so it is not used.)
   */
  eventId: string;
  /** 0 on the first attempt (from `X-Service-Retry-Num`: unsigned, for information only). */
  retryNum: number;
  /** Why the previous attempt failed (`timeout`, `connection_failed`, `http_error`, `rate_limited`); unsigned too. */
  retryReason?: string;
}

/**
 * What a handler may return: the answer the protocol defines for its event (eventAnswers.ts): a toast
 * `{text}` to a slash command, a button, a message action or a ServiceML action; an attachment (or
 * `{attachment}`) to a URL preview; nothing to any other event, whose answer the service ignores.
 */
export type EventAnswer<N extends EventName> = N extends AnsweredEventName ? AnswerBodyOf<N> | undefined : undefined;

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
  /** Told why each delivery was refused (default: `console`); pino and similar loggers fit too. */
  logger?: { warn(message: string): void };
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

type NextFunction = (error?: unknown) => void;

export interface EventListener {
  handle(request: EventRequest): Promise<ListenerAnswer>;
  /** A request listener for `http.createServer`; answers 405 to anything but POST. */
  node: (req: IncomingMessage, res: ServerResponse) => void;
  /** Registers `POST <path>`; the body parsing it sets up stays inside the plugin. */
  fastify: FastifyListenerPlugin;
  /**
   * Middleware for `app.post(path, listener.express)`. Mount it before `express.json()`, or behind
   * `express.raw()`; after a JSON parser it needs the raw bytes kept as `req.rawBody`
   * (`express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })`).
   */
  express: (req: RequestWithBody, res: ServerResponse, next: NextFunction) => void;
}

/** A request a framework's body parser may have read already: its result, and the raw bytes if it kept them. */
type RequestWithBody = IncomingMessage & { body?: unknown; rawBody?: unknown };

const defaultBodyLimit = 1024 * 1024;

export function createEventListener(options: EventListenerOptions): EventListener {
  // Without them every delivery would be refused as forged: fail at start-up, where the mistake is.
  for (const name of ['appId', 'appSecret'] as const) {
    if (typeof options?.[name] !== 'string' || options[name] === '') {
      throw new TypeError(`createEventListener needs ${name}: the app's ${name === 'appId' ? 'id (a:…)' : 'secret'}, as \`aviary app create\` printed it`);
    }
  }
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit;
  const onError = options.onError ?? ((error, event) => console.error(`aviary: the ${event.name} handler failed`, error));
  const logger = options.logger ?? console;

  /** A refusal, told to the logger: the developer must see why events do not arrive. */
  function refuse(status: number, error: string, description: string): ListenerAnswer {
    logger.warn(`aviary: refused an event delivery (${status} ${error}): ${description}`);
    return refusal(status, error, description);
  }

  async function handle({ headers, body: raw }: EventRequest): Promise<ListenerAnswer> {
    // From JavaScript, or past a cast: a body someone parsed has lost the bytes the token signs.
    if (typeof raw !== 'string' && !(raw instanceof Uint8Array)) return parsedBody(`handle() was given ${describeBody(raw)}`);
    const token = headerValue(headers, eventHeaders.token);
    if (!token) return refuse(403, 'InvalidEventToken', `the ${eventHeaders.token} header is missing`);
    let claims: EventTokenClaims;
    // Over the raw bytes, before any parsing: the token vouches for exactly these.
    const verify = (candidate: string) =>
      verifyEventToken(candidate, {
        appId: options.appId,
        appSecret: options.appSecret,
        route: 'listener',
        content: raw,
        now: options.now,
        clockToleranceSeconds: options.clockToleranceSeconds,
      });
    try {
      claims = await verify(token);
    } catch (error) {
      if (!(error instanceof EventTokenError)) throw error;
      // During a secret rotation's grace period the service also signs with the previous secret: a
      // listener still holding it accepts the event by that token.
      const previous = headerValue(headers, eventHeaders.previousToken);
      const byPrevious = previous ? await verify(previous).catch((other: unknown) => (other instanceof EventTokenError ? undefined : Promise.reject(other))) : undefined;
      if (!byPrevious) return refuse(403, 'InvalidEventToken', `${error.message} (${error.reason})`);
      claims = byPrevious;
    }
    const parsed = parseJsonBody(raw);
    if ('problem' in parsed) return refuse(400, 'InvalidRequestData', parsed.problem);
    const body = parsed.value;
    if (!isEventShaped(body)) {
      return refuse(400, 'InvalidRequestData', 'the body must be an event object with a string "name" and "userId"');
    }
    if (body.userId !== claims.userId) {
      return refuse(403, 'InvalidEventToken', `the event token is for user ${claims.userId}, but the event names ${body.userId} (userId)`);
    }

    if (!isEventName(body.name)) return answer(200, {});
    // The token vouches for these exact bytes, so the service sent them: the event has its protocol
    // shape (the service's tests hold every event to its schema). Not checked again here, so that an
    // attribute a newer service adds reaches the handler instead of failing the delivery.
    const event = body as AviaryEvent;
    const handler = (options.on?.[event.name] as AnyEventHandler | undefined) ?? options.onEvent;
    if (!handler) return answer(200, {});
    const ctx: EventContext = {
      claims,
      eventId: claims.jti,
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

  function serveNode(req: RequestWithBody, res: ServerResponse): void {
    const answered =
      req.body !== undefined
        ? answerParsed(req)
        : readNodeBody(req, bodyLimit).then((raw) => (raw === tooLarge ? tooLarge413() : handle({ headers: req.headers, body: raw })));
    answered.then(
      (result) => writeAnswer(res, result),
      (error) => {
        console.error('aviary: the event listener failed', error);
        writeAnswer(res, refusal(500, 'InternalServerError', 'the event listener failed'));
      },
    );
  }

  /**
   * A framework's body parser ran first: its Buffer or string is the raw body, and so is a `rawBody` it
   * kept. A decoded object is not: its digest cannot be checked, so nothing is accepted until the app is
   * set up to keep the raw bytes (500, so that the service retries once it is).
   */
  async function answerParsed(req: RequestWithBody): Promise<ListenerAnswer> {
    const raw = [req.body, req.rawBody].find((body) => typeof body === 'string' || body instanceof Uint8Array) as Uint8Array | string | undefined;
    if (raw !== undefined) return handle({ headers: req.headers, body: raw });
    return parsedBody('a body parser read the request before the Aviary listener');
  }

  /**
   * The delivery is refused (500, so that the service retries once the app is set up to keep the raw
   * bytes): the token signs the body's exact bytes, and a decoded object no longer has them.
   */
  function parsedBody(what: string): ListenerAnswer {
    return refuse(
      500,
      'InternalServerError',
      `${what}, but the Aviary listener needs the raw body (a Buffer, Uint8Array or string, as received) to check the token's digest: ` +
        'mount the listener before express.json(), use express.raw({ type: "application/json" }), or keep the raw bytes as req.rawBody and pass them to handle()',
    );
  }

  /** Closes the connection rather than read the rest of a body nobody wants. */
  function tooLarge413(): ListenerAnswer {
    return { ...refuse(413, 'RequestTooLarge', `the body is larger than ${bodyLimit} bytes`), headers: { connection: 'close' } };
  }

  const fastify = fastifyPlugin({
    handle,
    bodyLimit,
    answerReadFailure: (statusCode) =>
      statusCode === 413
        ? tooLarge413()
        : statusCode !== undefined && statusCode < 500
          ? refuse(400, 'InvalidRequestData', 'the request could not be read')
          : refusal(500, 'InternalServerError', 'the event listener failed'),
  });

  return {
    handle,
    node: (req, res) => {
      if (req.method !== 'POST') {
        writeAnswer(res, { ...refuse(405, 'HTTPMethodNotAllowed', 'events are delivered with POST'), headers: { allow: 'POST' } });
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

/** What a body that is not raw bytes is, for the refusal: "an already-parsed object", "nothing". */
function describeBody(body: unknown): string {
  if (body === undefined || body === null) return 'no body';
  return `an already-parsed ${Array.isArray(body) ? 'array' : typeof body} as the body`;
}

function isEventShaped(body: unknown): body is { name: string; userId: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { name, userId } = body as Record<string, unknown>;
  return typeof name === 'string' && typeof userId === 'string';
}

function answerBody(name: EventName, result: unknown): Record<string, unknown> {
  if (result === undefined || result === null) return {};
  if (!(name in eventAnswerSchemas)) return {};
  if (name === 'chat.generateUrlPreview') return typeof result === 'object' && 'attachment' in result ? (result as Record<string, unknown>) : { attachment: result };
  return { text: (result as ToastAnswer).text };
}

function answer(status: number, body: Record<string, unknown>): ListenerAnswer {
  return { status, headers: {}, body };
}

function refusal(status: number, error: string, description: string): ListenerAnswer {
  return answer(status, { error, description });
}
