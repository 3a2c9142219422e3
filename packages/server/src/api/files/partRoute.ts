import { api } from '@aviary/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forRequest, type ServerContext } from '../../context.js';
import { uploadPart } from '../../core/files/resumable.js';
import type { TokenCaller, PersonCaller } from '../caller.js';
import { callerOf } from '../callerOf.js';
import { enforceRateLimits } from '../methodRateLimits.js';
import { decodeParams, refuseUndeclaredFields, type RawParams } from '../params.js';
import { abortedSignal, contentLength, cookieGuard } from './uploadRequest.js';

/**
 * POST /v1/files.uploadPart (docs/reference/files.md "Resumable uploads"): the method's own route, so
 * that the part, the raw request body whatever its type, streams to storage instead of being parsed.
 * Its parameters are in the query string; the pipeline is files.upload's (uploadRoute.ts).
 */
export function registerUploadPartRoute(app: FastifyInstance, ctx: ServerContext): void {
  const guardCookie = cookieGuard(ctx);
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // The body is left unread here (no request.body: the NUL guard walks a body's fields) and streamed from request.raw.
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.post('/v1/files.uploadPart', async (request, reply) => {
      try {
        return await receivePart(ctx, request, reply, guardCookie);
      } catch (error) {
        // What is left of the body is not read: the connection closes once the answer is sent.
        reply.header('connection', 'close');
        throw error;
      }
    });
  });
}

async function receivePart(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, guardCookie: (request: FastifyRequest) => void) {
  const method = api.files.uploadPart;
  const raw = request.query as RawParams;
  const caller = (await callerOf(ctx, method, request, raw, guardCookie)) as TokenCaller | PersonCaller;
  await enforceRateLimits(ctx, method, caller, raw, reply);
  const { token: _credential, ...fields } = raw;
  refuseUndeclaredFields(['uploadId', 'offset'], fields, 'files.uploadPart (its query string takes uploadId, offset and token; the part is the body)');
  // The method's own parameters, read as /v1 reads them (missing, repeated or malformed: named).
  const { uploadId, offset } = decodeParams(method.params, fields) as { uploadId: string; offset: number };
  const state = await uploadPart(forRequest(ctx, request.id), caller, {
    uploadId,
    offset,
    body: request.raw,
    declaredLength: contentLength(request.headers['content-length']),
    signal: abortedSignal(request),
  });
  return { upload: state };
}
