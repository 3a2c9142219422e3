import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { sessionFor } from '../client/harness.js';
import { onPostgres } from '../helpers/pgLocks.js';
import { sendPart } from './upload.js';

/**
 * PostgreSQL: one part of a resumable upload sent twice at once, at the same offset (a client retrying a
 * part whose answer it gave up waiting for). Both found the upload at that offset and both recorded
 * their part there: the second met the first's row and answered 500, and its bytes stayed stored. Now
 * an upload's parts are recorded one at a time; the second finds the offset moved on, is refused as a
 * part at the wrong offset, and removes its bytes. The test holds the first at its record (a lock of the
 * parts' table, from a session of its own: helpers/pgLocks.ts). SQLite's one writer never interleaves them.
 */
onPostgres('a resumable upload’s part sent twice at once', (suite) => {
  const t = () => suite().t;

  it('records it once and refuses the other by its offset', async () => {
    const team = await t().f.team();
    const ann = await sessionFor(t(), await t().f.person(team.id));
    const start = await ann.call('files.startUpload', { name: 'notes.bin', size: 2048 });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const uploadId = (start.body as any).upload.uploadId as string;
    const part = Buffer.alloc(1024, 7);
    const answers: Array<{ status: number; body: any }> = [];
    const send = () => async () => answers.push(await sendPart(t(), ann.sessionToken, uploadId, 0, part));

    const outcome = await suite().holder.interleave(
      { statement: 'lock table file_upload_parts in share mode', params: [], waitsAt: /^insert into "file_upload_parts"/ },
      send(),
      send(),
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body).toMatchObject({ error: 'InvalidParameter', parameter: 'offset', description: /the next part starts at offset 1024/ });
    expect((await ann.call('files.getUpload', { uploadId })).body).toMatchObject({ upload: { offset: 1024 } });
    const stored = (await readdir(join(t().testStore.dataDir, 'files'), { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile() && entry.name.startsWith(`${uploadId.replace(':', '_')}.part-`));
    expect(stored).toHaveLength(1);
  });
});
