import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import formbody from '@fastify/formbody';
import type { ErrorCode } from '@aviary/protocol';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { newRequestId } from '../store/ids.js';
import { isStoreUnavailable } from '../store/store.js';
import { methodNotAllowed, registerDispatcher, requireMethod, UNREADABLE_BODY } from './dispatcher.js';
import { ApiError } from './errors.js';
import { decodeForm } from './formDecoding.js';
import { answerFrameworkError, isHeadRequest, missingHost, nothingServedAt, rawErrorResponse, refuseConnect } from './frameworkErrors.js';
import { findUnstorableText } from './textGuard.js';
import { registerOpenApiRoutes } from './openapi.js';
import { registerOpsRoutes } from './ops/opsRoutes.js';
import { registerRequestMetrics } from './ops/requestMetrics.js';
import { registerSecurityHooks } from './security/index.js';
import { pageNotFound } from './webClient.js';

export interface HttpServerOptions {
  /** Routes other parts of the server add (client API, widget.js…). */
  plugins?: Array<(app: FastifyInstance) => void | Promise<void>>;
}

export interface HttpServer {
  app: FastifyInstance;
  /**
   * Stops accepting connections and lets in-flight requests finish; a request that still comes on a
   * kept-alive connection is served, with `Connection: close`; idle connections are closed after
   * `drainIdleMs`, every connection after `shutdownGraceMs`.
   */
  drain(): Promise<void>;
}

export async function buildHttpServer(ctx: ServerContext, options: HttpServerOptions = {}): Promise<HttpServer> {
  const { config } = ctx;
  let draining = false;

  const app = Fastify({
    loggerInstance: ctx.log,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    genReqId: newRequestId,
    // Fastify's default makes a child logger for every request, which costs more than routing it. Nothing
    // logs through request.log: errors are logged by sendError through ctx.log, with the request id.
    childLoggerFactory: (logger) => logger,
    return503OnClosing: false,
    forceCloseConnections: false,
    serverFactory: (handler) => httpServerWithTimeouts(handler, config),
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    routerOptions: { querystringParser: decodeForm },
  });


  await app.register(formbody, { bodyLimit: config.bodyLimitBytes, parser: decodeForm });
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: config.bodyLimitBytes }, (_request, _body, done) => done(null, UNREADABLE_BODY));

  // A callback hook, not an async one: Fastify would otherwise wait on a promise for every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    const noHost = missingHost(request);
    if (noHost) return done(noHost);
    // A proxy may have sent this on a connection it kept before the drain began: serving it is what
    // keeps a POST from failing (the proxy cannot send one elsewhere safely), and the connection ends after it.
    if (draining) reply.header('connection', 'close');
    done();
  });
  registerSecurityHooks(app, ctx);
  registerRequestMetrics(app, ctx.metrics);

  app.addHook('preValidation', (request, _reply, done) => done(findUnstorableText(request)));

  app.setErrorHandler((error: FastifyError, request, reply) => sendError(ctx, error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const refusedMethod = methodNotAllowed(request);
    const page = refusedMethod ? undefined : pageNotFound(request);
    if (page !== undefined) return reply.code(404).type('text/html; charset=utf-8').send(page);
    const apiError = refusedMethod ?? nothingServedAt(request);
    for (const [name, value] of Object.entries(apiError.headers)) reply.header(name, value);
    return reply.code(apiError.status).type('application/json; charset=utf-8').send(apiError.toBody());
  });

  registerOpenApiRoutes(app, ctx);
  registerOpsRoutes(app, ctx);
  registerDispatcher(app, ctx);
  for (const plugin of options.plugins ?? []) await app.register(async (scope) => plugin(scope));

  return {
    app,
    async drain() {
      draining = true;
      const server = app.server as DrainingServer;
      server.keepsIdleConnections = config.drainIdleMs > 0;
      const closing = app.close();
      const idleClosed = setTimeout(() => {
        server.keepsIdleConnections = false;
        server.closeIdleConnections();
      }, Math.min(config.drainIdleMs, config.shutdownGraceMs));
      const forced = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
      idleClosed.unref();
      forced.unref();
      await closing;
      clearTimeout(idleClosed);
      clearTimeout(forced);
    },
  };
}

/**
 * Node's `close()` also closes every idle kept-alive connection at once. Behind a proxy that races a
 * request the proxy is sending on one of them: it meets a closed socket, and a POST cannot be sent
 * elsewhere (it may have been carried out), so the client gets 502. While `keepsIdleConnections`, they
 * stay open; drain() closes them a little later.
 */
class DrainingServer extends Server {
  keepsIdleConnections = false;

  override closeIdleConnections(): void {
    if (!this.keepsIdleConnections) super.closeIdleConnections();
  }
}

function httpServerWithTimeouts(handler: (req: IncomingMessage, res: ServerResponse) => void, config: ServerContext['config']): Server {
  const { requestTimeoutMs } = config;
  const server = new DrainingServer(
    {
      // Refused in the onRequest hook instead, with the API's error shape.
      requireHostHeader: false,
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      // Node checks request deadlines on this interval; keep it a fraction of the limit.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(requestTimeoutMs / 4))),
      // Longer than the proxy's keep-alive, so that the proxy closes an idle connection, never the server.
      keepAliveTimeout: config.keepAliveTimeoutMs,
    },
    handler,
  );
  refuseConnect(server);
  return server;
}

/** Errors Node raises before a request reaches Fastify: slow clients (408) and unparsable HTTP (400). */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const code: ErrorCode = timedOut ? 'RequestTimeout' : tooLarge ? 'RequestTooLarge' : 'InvalidRequestData';
  const description = timedOut
    ? 'The complete request did not arrive in time.'
    : tooLarge
      ? 'The request headers are too large.'
      : 'The request is not valid HTTP.';
  socket.end(rawErrorResponse(code, description, { head: isHeadRequest(error) }));
}

function sendError(ctx: ServerContext, error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(ctx, error, request);
  for (const [name, value] of Object.entries(apiError.headers)) reply.header(name, value);
  return reply.code(apiError.status).type('application/json; charset=utf-8').send(apiError.toBody());
}

/** Maps anything thrown to an API error; body-reading errors come after NoSuchMethod and 405 (docs/errors.md). */
function toApiError(ctx: ServerContext, error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error.code?.startsWith('FST_ERR_CTP_') || error.code === 'FST_ERR_BAD_URL' || error.statusCode === 400) {
    if (request.routeOptions.url === '/v1/:method') {
      try {
        requireMethod(request);
      } catch (notFound) {
        return notFound as ApiError;
      }
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return new ApiError('RequestTooLarge', `The request body is larger than ${ctx.config.bodyLimitBytes} bytes.`);
    }
    return new ApiError('InvalidRequestData', `The request body could not be read: ${readableReason(error)}`);
  }
  if (isStoreUnavailable(error)) {
    ctx.log.warn({ err: error, requestId: request.id }, 'store unavailable');
    return new ApiError('ServiceUnavailable', 'The database is unavailable; retry shortly.', {}, { 'retry-after': '5' });
  }
  ctx.log.error({ err: error, requestId: request.id }, 'unexpected error');
  return new ApiError('InternalServerError', 'An unexpected condition occurred; quote the requestId when reporting it.', {
    requestId: request.id,
  });
}

function readableReason(error: FastifyError): string {
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) return 'the JSON is not valid.';
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'the JSON body is empty.';
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'the content type is not supported.';
  return 'it is malformed.';
}
