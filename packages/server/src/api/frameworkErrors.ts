import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorRegistry, type ErrorCode } from '@aviary/protocol';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { newRequestId } from '../store/ids.js';
import { ApiError } from './errors.js';

/**
 * Answers for requests that never reach a route: what Node's parser, Node's server or Fastify's router
 * refuse on their own. Each gets the API's error shape `{error, description}` like every other error,
 * instead of an empty body, Fastify's own JSON, or no answer at all.
 */

/** "Nothing is served here", the answer of the not-found handler, also for over-long path segments. */
export function nothingServedAt(request: FastifyRequest): ApiError {
  const path = request.url.split('?')[0].slice(0, 200);
  return new ApiError('NoSuchMethod', `Nothing is served at ${request.method} ${path}; methods are called at /v1/<method>.`);
}

/** Fastify's `frameworkErrors`: a path that is not valid percent-encoding, or a path segment over the router's limit. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiError =
    error.code === 'FST_ERR_BAD_URL'
      ? new ApiError('InvalidRequestData', 'The URL path is not valid percent-encoding; encode % as %25.')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? nothingServedAt(request)
        : new ApiError('InvalidRequestData', 'The request could not be routed.');
  void reply
    .code(apiError.status)
    .header('x-request-id', request.id)
    .type('application/json; charset=utf-8')
    .send(apiError.toBody());
}

/**
 * HTTP/1.1 requires a Host header. Node would answer its absence with an empty 400 of its own, so the
 * server is built with `requireHostHeader: false` and refuses here instead.
 */
export function missingHost(request: FastifyRequest): ApiError | undefined {
  if (request.headers.host !== undefined || request.raw.httpVersion === '1.0') return undefined;
  return new ApiError('InvalidRequestData', 'The Host header is missing; HTTP/1.1 requires it.');
}

/**
 * A complete HTTP/1.1 error response written straight to a socket, for errors raised before Fastify.
 * The answer to a HEAD has the headers of the body but not the body: a client would read the body as
 * the start of a next response.
 */
export function rawErrorResponse(code: ErrorCode, description: string, options: { extraHeaders?: string; head?: boolean } = {}): string {
  return rawResponse(errorRegistry[code].status, JSON.stringify({ error: code, description }), options);
}

/** An API error (its context fields and headers too) as a raw response: refusals of a WebSocket upgrade. */
export function rawApiErrorResponse(error: ApiError): string {
  const extraHeaders = Object.entries(error.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return rawResponse(error.status, JSON.stringify(error.toBody()), { extraHeaders });
}

function rawResponse(status: number, body: string, options: { extraHeaders?: string; head?: boolean }): string {
  return (
    `HTTP/1.1 ${status} ${reasonPhrases[status] ?? 'Error'}\r\n` +
    `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
    `x-content-type-options: nosniff\r\nx-request-id: ${newRequestId()}\r\n${options.extraHeaders ?? ''}connection: close\r\n\r\n` +
    (options.head ? '' : body)
  );
}

/** Whether the bytes Node could not parse are those of a HEAD request (they begin with its request line). */
export const isHeadRequest = (error: Error & { rawPacket?: unknown }): boolean =>
  Buffer.isBuffer(error.rawPacket) && error.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';

const reasonPhrases: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * CONNECT is a request to open a tunnel, which Node hands to a `connect` listener rather than to the
 * request handler; without one it closes the socket unanswered. The server tunnels nothing.
 */
export function refuseConnect(server: Server): void {
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.end(rawErrorResponse('HTTPMethodNotAllowed', 'CONNECT is not allowed: this server opens no tunnels.', { extraHeaders: 'allow: GET, POST\r\n' }));
  });
}
