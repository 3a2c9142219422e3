import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import { ApiError } from '../errors.js';
import { refuseForeignOrigin, requestOrigin } from '../security/crossSite.js';

/** What the routes that stream an upload's body (files.upload, files.uploadPart) share. */

/** With the cookie, only a POST from this server's pages: a form on another site may post a body too. */
export function cookieGuard(ctx: ServerContext): (request: FastifyRequest) => void {
  const publicOrigin = ctx.config.publicUrl ? new URL(ctx.config.publicUrl).origin : undefined;
  return (request) => {
    if (request.method !== 'POST') throw new ApiError('CrossSiteRequest', 'With the session cookie, upload with POST from this server’s own pages.');
    refuseForeignOrigin(request.headers, publicOrigin ?? requestOrigin(request));
  };
}

/** Aborts when the connection closes before the whole request body arrived. */
export function abortedSignal(request: FastifyRequest): AbortSignal {
  const controller = new AbortController();
  const closed = () => {
    if (!request.raw.complete) controller.abort();
  };
  const { socket } = request.raw;
  if (request.raw.destroyed || socket.destroyed) closed();
  request.raw.once('close', closed);
  socket.once('close', closed);
  return controller.signal;
}

export function contentLength(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  return /^\d{1,16}$/.test(header) ? Number(header) : undefined;
}

