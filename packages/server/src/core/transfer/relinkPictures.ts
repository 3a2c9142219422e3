import type { Tx } from '../../store/store.js';
import { PICTURE_ID, PICTURES_PATH } from '../pictures/pictures.js';

/** The picture a URL names, as an Aviary server gives them: a path, or an absolute URL, ending in /pictures/<id>. */
function pictureIdIn(url: string): string | undefined {
  const [path] = url.split(/[?#]/);
  const at = path!.lastIndexOf(PICTURES_PATH);
  const id = at < 0 ? '' : path!.slice(at + PICTURES_PATH.length);
  return PICTURE_ID.test(id) ? id : undefined;
}

/**
 * After an import's rows are in: people's pictures and the team's icon are URLs of the server the team
 * was exported from (absolute when that one knew its public URL). Each that names a picture the import
 * brought becomes that picture's URL here; one that names a picture the export did not hold (an export
 * made before pictures were carried, or a picture replaced while it was made) is dropped, so that the
 * person shows their initials instead of a broken image. Any other URL (a bot's icon, an outside
 * picture) stays as it was.
 */
export async function relinkPictures(tx: Tx, teamId: string, pictureUrl: (pictureId: string) => string): Promise<void> {
  const imported = new Set((await tx.selectFrom('pictures').select('id').where('team_id', '=', teamId).execute()).map((row) => row.id));
  const relinked = (url: string | null): string | null => {
    const id = url === null ? undefined : pictureIdIn(url);
    if (id === undefined) return url;
    return imported.has(id) ? pictureUrl(id) : null;
  };
  const people = await tx.selectFrom('users').select(['id', 'profile_image']).where('team_id', '=', teamId).where('profile_image', 'is not', null).execute();
  for (const person of people) {
    const url = relinked(person.profile_image);
    if (url !== person.profile_image) await tx.updateTable('users').set({ profile_image: url }).where('id', '=', person.id).execute();
  }
  const team = await tx.selectFrom('teams').select('icon_url').where('id', '=', teamId).executeTakeFirstOrThrow();
  const icon = relinked(team.icon_url);
  if (icon !== team.icon_url) await tx.updateTable('teams').set({ icon_url: icon }).where('id', '=', teamId).execute();
}
