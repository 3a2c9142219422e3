import { api } from '@aviary/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import { findReadableFile, type FileReader } from '../../core/files/fileAccess.js';
import { presentFile, storageKey } from '../../core/files/presentFile.js';
import { fileStorageFor } from '../../files/storage.js';
import type { FilesTable } from '../../store/schema.js';
import { callerOf } from '../callerOf.js';
import { ApiError, invalidParameter } from '../errors.js';
import { signedInPerson } from '../session/auth.js';
import { bearerToken } from '../session/sessionToken.js';
import { contentDisposition, parseRange } from './httpRanges.js';

/**
 * Every file answer's policy: nothing in it runs or loads anything, even opened on its own (sandbox,
 * no sources), and no other site may embed it.
 */
export const FILE_CONTENT_SECURITY_POLICY = "sandbox; default-src 'none'; img-src 'self'; media-src 'self'";

/**
 * GET /files/:id[?size=thumbnail|preview] (docs/reference/files.md "Serving"): a file's bytes, through
 * this server (not signed URLs to the store: the same check as every read, at every request, in one
 * place, and the same answer whichever store holds the bytes), to whoever may see it (files.getInfo's
 * rules): the session cookie (an <img> of the web client) or Authorization: Bearer (a token, a session
 * token, or a personal token, which acts as its person). Ranges for video
 * and resumed downloads. Inline only for safe image, video and audio types; everything else, SVG and
 * HTML above all, is an attachment of type application/octet-stream.
 */
export function registerFileServeRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: { id: string }; Querystring: { size?: string } }>('/files/:id', async (request, reply) => {
    const reader = await readerOf(ctx, request);
    const { size } = request.query;
    if (size !== undefined && size !== 'thumbnail' && size !== 'preview') throw invalidParameter('size', `size is thumbnail or preview (or absent, for the file itself); got ${JSON.stringify(String(size).slice(0, 40))}.`);
    const file = await findReadableFile(ctx.db, reader, request.params.id.slice(0, 64), 'id');
    const shown = presentFile(file);
    const storage = fileStorageFor(ctx.config);
    reply
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', FILE_CONTENT_SECURITY_POLICY)
      .header('cross-origin-resource-policy', 'same-origin')
      .header('cache-control', 'private, max-age=300');
    if (size !== undefined && file.renditions === 'ready') {
      return reply.type('image/webp').header('content-disposition', contentDisposition('inline', renditionName(file, size))).send(await storage.get(storageKey(file, size)));
    }
    if (size !== undefined && !shown.inline) throw invalidParameter('size', `File ${file.id} has no ${size}: only images shown in the page have one.`);
    reply
      .type(shown.inline ? file.mime_type : 'application/octet-stream')
      .header('content-disposition', contentDisposition(shown.inline ? 'inline' : 'attachment', file.name))
      .header('accept-ranges', 'bytes');
    const total = Number(file.size);
    const range = parseRange(request.headers.range, total);
    if (range === 'unsatisfiable') {
      // 416, as HTTP has it for a range past the end, with the API's error body.
      const refusal = new ApiError('InvalidParameter', `The range ${String(request.headers.range).slice(0, 60)} is outside the file’s ${total} bytes.`, { parameter: 'Range' });
      reply.removeHeader('content-disposition');
      return reply.code(416).header('content-range', `bytes */${total}`).type('application/json; charset=utf-8').send(refusal.toBody());
    }
    if (range === undefined) return reply.header('content-length', total).send(total === 0 ? '' : await storage.get(storageKey(file)));
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${total}`)
      .header('content-length', range.end - range.start + 1)
      .send(await storage.get(storageKey(file), range));
  });
}

const renditionName = (file: FilesTable, size: string): string => `${file.name.replace(/\.[A-Za-z0-9]{1,8}$/, '')}.${size}.webp`;

/** Authorization: Bearer (a token, a session token or a personal token: callerOf tells them apart), else the session cookie. */
export async function readerOf(ctx: ServerContext, request: FastifyRequest): Promise<FileReader> {
  if (bearerToken(request) !== undefined) {
    const caller = await callerOf(ctx, api.files.getInfo, request, {}, () => undefined);
    if (caller.user === null) throw new ApiError('PermissionDenied', 'Files are read with a token or a session.');
    return caller as FileReader;
  }
  return { user: await signedInPerson(ctx, request), appId: null, kind: 'person' };
}
