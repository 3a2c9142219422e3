import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { setProfilePicture } from '../../src/core/pictures/ownerPictures.js';
import { sessionFor } from '../client/harness.js';
import { png, upload } from '../files/upload.js';
import { onPostgres } from '../helpers/pgLocks.js';

/**
 * PostgreSQL: one person's picture replaced twice at once (two tabs). Each saw no picture of the other's
 * and kept its own, so the person had two picture rows, and the squares of the one not shown stayed
 * stored until the next replacement. Now one owner's replacements take turns: the second finds the
 * first's picture and replaces it, squares and all. The test holds the first at its insert (a lock of
 * the table, from a session of its own: helpers/pgLocks.ts). SQLite's one writer never interleaves them.
 */
onPostgres('a picture replaced twice at once', (suite) => {
  const t = () => suite().t;

  it('leaves one picture, the second, and only its squares stored', async () => {
    const team = await t().f.team();
    const ann = await t().f.person(team.id);
    const session = await sessionFor(t(), ann);
    const uploaded = async (name: string) => {
      const answer = await upload(t(), session.sessionToken, name, await png(80, 80));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.file.id as string;
    };
    const [first, second] = [await uploaded('first.png'), await uploaded('second.png')];
    const replace = (fileId: string) => () => setProfilePicture(t().server.ctx, ann, { fileId });

    const outcome = await suite().holder.interleave(
      { statement: 'lock table pictures in share mode', params: [], waitsAt: /^insert into "pictures"/ },
      replace(first),
      replace(second),
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    const db = t().testStore.store.db;
    const pictures = await db.selectFrom('pictures').select('id').where('owner_id', '=', ann.id).execute();
    expect(pictures).toHaveLength(1);
    const { profile_image } = await db.selectFrom('users').select('profile_image').where('id', '=', ann.id).executeTakeFirstOrThrow();
    expect(profile_image).toMatch(new RegExp(`/pictures/${pictures[0]!.id}$`));
    const files = await readdir(join(t().testStore.dataDir, 'files'), { recursive: true, withFileTypes: true });
    const squares = files.filter((entry) => entry.isFile() && entry.name.endsWith('.webp')).map((entry) => entry.name.split('.')[0]);
    expect(new Set(squares)).toEqual(new Set([pictures[0]!.id]));
  });
});
