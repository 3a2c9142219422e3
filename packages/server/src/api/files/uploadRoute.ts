import multipart from '@fastify/multipart';
import { api } from '@aviary/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forRequest, type ServerContext } from '../../context.js';
import { checkDeclaredLength, receiveFile } from '../../core/files/upload.js';
import { presentFile } from '../../core/files/presentFile.js';
import type { TokenCaller, PersonCaller } from '../caller.js';
import { callerOf } from '../callerOf.js';
import { ApiError, invalidParameter, missingParameter } from '../errors.js';
import { enforceRateLimits } from '../methodRateLimits.js';
import { refuseUndeclaredFields, type RawParams } from '../params.js';
import { abortedSignal, contentLength, cookieGuard } from './uploadRequest.js';

/**
 * POST /v1/files.upload (docs/reference/files.md): the method's own route, so that its multipart body
 * is streamed to storage instead of read whole like every other method's. The same pipeline as
 * /v1/:method otherwise: caller (token, session or, from this server's pages, the session cookie),
 * rate limit, then the checks of Content-Length before a byte of the body is read.
 */
export function registerFileUploadRoute(app: FastifyInstance, ctx: ServerContext): void {
  const guardCookie = cookieGuard(ctx);
  void app.register(async (scope) => {
    await scope.register(multipart, {
      // Our own count (core/files/receiveStream.ts) stops a file first, with FileTooLarge; these bound the rest.
      limits: { files: 1, fileSize: ctx.config.files.maxFileBytes + 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 20, fieldNameSize: 100 },
    });
    scope.post('/v1/files.upload', async (request, reply) => {
      try {
        return await upload(ctx, request, reply, guardCookie);
      } catch (error) {
        // What is left of the body is not read: the connection closes once the answer is sent, so a
        // client that announced gigabytes cannot keep the server reading them.
        reply.header('connection', 'close');
        throw asApiError(error);
      }
    });
  });
}

async function upload(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, guardCookie: (request: FastifyRequest) => void) {
  const method = api.files.upload;
  const raw = request.query as RawParams;
  const caller = (await callerOf(ctx, method, request, raw, guardCookie)) as TokenCaller | PersonCaller;
  await enforceRateLimits(ctx, method, caller, raw, reply);
  const { token: _credential, size: sizeParam, ...fields } = raw;
  refuseUndeclaredFields([], fields, 'files.upload (its query string takes size and token)');
  const size = announcedSize(sizeParam);
  if (!request.isMultipart()) {
    throw new ApiError('InvalidRequestData', 'files.upload takes multipart/form-data: the file as a part named "file" (its filename is the file’s name).');
  }
  const c = forRequest(ctx, request.id);
  const declared = contentLength(request.headers['content-length']);
  const claim = checkDeclaredLength(c, declared, size);
  const part = await request.file();
  if (!part || part.fieldname !== 'file') throw missingParameter('file');
  const row = await receiveFile(c, caller, { stream: part.file, filename: part.filename, size }, claim, abortedSignal(request));
  return { file: presentFile(row) };
}

/** The file's size in bytes, when the query string announces it (optional). */
function announcedSize(param: unknown): number | undefined {
  if (param === undefined) return undefined;
  if (typeof param !== 'string' || !/^\d{1,15}$/.test(param)) throw invalidParameter('size', 'size is the file’s size in bytes, a whole number (or leave it out).');
  return Number(param);
}

/** @fastify/multipart's own errors (a malformed body, too many parts) as the API's. */
function asApiError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: string }).code ?? '';
  if (code.startsWith('FST_') || /multipart|boundary|unexpected end/i.test((error as Error).message ?? '')) {
    return new ApiError('InvalidRequestData', `The multipart body could not be read: ${(error as Error).message.slice(0, 200)}; send one part named "file".`);
  }
  return error;
}
