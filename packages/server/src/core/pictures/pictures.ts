import { randomBytes } from 'node:crypto';
import { lockName } from '../../store/rows/locks.js';
import type { PicturesTable, UsersTable } from '../../store/schema.js';
import type { Db, Tx } from '../../store/store.js';
import { linkTo } from '../webLinks.js';
import type { CoreContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import type { Effects } from '../effects/effects.js';
import { deleteFileRow, removeBytes } from '../files/removeFiles.js';
import { pictureSource } from './pictureSource.js';
import { removeSquares, storeSquares } from './squares.js';

const base32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** A picture's id: 26 random base32 characters (130 bits), part of its URL. */
const newPictureId = (): string => Array.from(randomBytes(26), (byte) => base32[byte & 31]).join('');
/** What newPictureId makes, and nothing else. */
export const PICTURE_ID = /^[a-z2-7]{26}$/;

/** The path a picture is served at (api/pictures/serveRoute.ts). */
export const PICTURES_PATH = '/pictures/';

/** Whose picture: a person's, or the team's icon. */
export type PictureOwner = Pick<PicturesTable, 'team_id' | 'owner_kind' | 'owner_id'>;

/**
 * Replaces the owner's picture with one made from `fileId` (an upload of `uploader`'s), or removes it
 * (`fileId` null). The squares are stored before the transaction; in it, the new row, the owner's old
 * rows gone, the upload's row gone (unless a message carries it) and `write` given the new URL (null
 * when removed) to put it where the owner shows it. After the commit, the old squares and the upload's
 * bytes are removed; a failed change removes the new squares instead.
 */
export async function replacePicture<T>(
  ctx: CoreContext,
  uploader: UsersTable,
  owner: PictureOwner,
  fileId: string | null,
  write: (tx: Tx, url: string | null, effects: Effects) => Promise<T>,
): Promise<T> {
  const file = fileId === null ? undefined : await pictureSource(ctx.db, uploader, fileId);
  const picture: PicturesTable | undefined = file && { id: newPictureId(), ...owner, created_at: ctx.now() };
  if (file && picture) await storeSquares(ctx, file, picture);
  try {
    const { result, replaced, uploadRemoved } = await runChange(ctx, async (tx, effects) => {
      // One owner's replacements take turns (PostgreSQL): the second finds the first's picture and replaces it too.
      await lockName(tx, `picture of ${owner.owner_kind} ${owner.owner_id}`);
      const replaced = await tx.selectFrom('pictures').select(['id', 'team_id']).where('owner_id', '=', owner.owner_id).where('owner_kind', '=', owner.owner_kind).execute();
      if (replaced.length > 0) await tx.deleteFrom('pictures').where('id', 'in', replaced.map((row) => row.id)).execute();
      if (picture) await tx.insertInto('pictures').values(picture).execute();
      const current = file && (await tx.selectFrom('files').selectAll().where('id', '=', file.id).executeTakeFirst());
      const uploadRemoved = current !== undefined && current.attached_at === null;
      if (uploadRemoved) await deleteFileRow(tx, current);
      const result = await write(tx, picture ? linkTo(ctx.config, `${PICTURES_PATH}${picture.id}`) : null, effects);
      return { result, replaced, uploadRemoved };
    });
    await removeSquares(ctx, replaced);
    if (uploadRemoved && file) await removeBytes(ctx, [file]);
    return result;
  } catch (error) {
    if (picture) await removeSquares(ctx, [picture]);
    throw error;
  }
}

/** A picture of the team, by its id; another team's is undefined, like one that does not exist (GET /pictures/:id). */
export const findTeamPicture = (db: Db, teamId: string, id: string) =>
  db.selectFrom('pictures').select(['id', 'team_id']).where('id', '=', id).where('team_id', '=', teamId).executeTakeFirst();
