import { pictureSides } from '@aviary/protocol';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { findTeamPicture } from '../../core/pictures/pictures.js';
import { pictureKey, type PictureSide } from '../../core/pictures/squares.js';
import { fileStorageFor } from '../../files/storage.js';
import { ApiError, invalidParameter } from '../errors.js';
import { FILE_CONTENT_SECURITY_POLICY, readerOf } from '../files/serveRoute.js';

const LARGEST: PictureSide = pictureSides[pictureSides.length - 1];

/**
 * GET /pictures/:id[?size=64|256|512] (docs/reference/pictures.md): a profile picture or team icon, a
 * square WebP, to anyone of its team (a session, its cookie for an <img> of the web client, or a token
 * as Bearer, as files are read). A new picture has a new id, so an answer never changes: cached for a year.
 */
export function registerPictureServeRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: { id: string }; Querystring: { size?: string } }>('/pictures/:id', async (request, reply) => {
    const reader = await readerOf(ctx, request);
    const side = sideOf(request.query.size);
    const id = request.params.id.slice(0, 64);
    const picture = await findTeamPicture(ctx.db, reader.user.team_id, id);
    if (!picture) throw new ApiError('UnknownFile', `There is no picture ${id.slice(0, 40)} that you can see: it does not exist, it was replaced, or it is another team’s.`, { parameter: 'id' });
    return reply
      .type('image/webp')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', FILE_CONTENT_SECURITY_POLICY)
      .header('cross-origin-resource-policy', 'same-origin')
      .header('cache-control', 'private, max-age=31536000, immutable')
      .send(await fileStorageFor(ctx.config).get(pictureKey(picture, side)));
  });
}

function sideOf(size: string | undefined): PictureSide {
  if (size === undefined) return LARGEST;
  const side = pictureSides.find((candidate) => String(candidate) === size);
  if (side === undefined) throw invalidParameter('size', `size is the side of a square in pixels, one of ${pictureSides.join(', ')} (absent: ${LARGEST}); got ${JSON.stringify(size.slice(0, 20))}.`);
  return side;
}
