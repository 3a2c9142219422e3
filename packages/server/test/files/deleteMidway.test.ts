import { AviaryApiError } from '@aviary/sdk';
import { expect, it } from 'vitest';
import { onPostgres } from '../helpers/pgLocks.js';
import { chatCast } from '../methods/chat-cast.js';
import { upload } from './upload.js';

/**
 * PostgreSQL: a file deleted, or detached by the deletion of the one message that carried it, while its
 * uploader sends a new message with it. Either the send waits for the deletion and is refused (the file
 * is gone), or the deletion waits for the send and the file stays, carried by the new message; never a
 * message that carries a file whose row and bytes are gone. The test holds the deletion at a given
 * statement with a lock of its own (helpers/pgLocks.ts). SQLite's one writer never interleaves them.
 */
onPostgres('a file deleted while a message is sent with it', (suite) => {
  const t = () => suite().t;
  const holder = () => suite().holder;

  /** A file Alice uploaded and sent once in #general. */
  async function sentFile() {
    const cast = await chatCast(t());
    const { body } = await upload(t(), cast.alice.token, 'plan.txt', 'the plan, version 1\n');
    const first = await cast.alice.client.chat.sendMessage({ to: cast.channelId, text: 'the plan', files: [body.file.id] });
    return { ...cast, fileId: body.file.id as string, firstUid: first.uid };
  }

  const db = () => t().testStore.store.db;
  const carriers = async (fileId: string) => (await db().selectFrom('message_files').select('message_uid').where('file_id', '=', fileId).execute()).map((row) => row.message_uid);
  const fileRow = (fileId: string) => db().selectFrom('files').select(['id', 'attached_at']).where('id', '=', fileId).executeTakeFirst();

  it('files.delete first: the send waits, then is refused; no message is left carrying the deleted file', async () => {
    const { alice, channelId, fileId, firstUid } = await sentFile();
    const outcome = await holder().interleave(
      // Held as it unlinks the file from the message that carried it.
      { statement: 'select 1 from message_files where file_id = $1 for update', params: [fileId], waitsAt: /^delete from "message_files"/ },
      () => alice.client.files.delete({ file: fileId }),
      () => alice.client.chat.sendMessage({ to: channelId, text: 'the plan again', files: [fileId] }),
    );
    expect(outcome.first).toBe('done');
    expect(outcome.second).toBeInstanceOf(AviaryApiError);
    expect((outcome.second as AviaryApiError).body).toMatchObject({ error: 'UnknownFile', parameter: 'files[0]' });
    expect(await fileRow(fileId)).toBeUndefined();
    expect(await carriers(fileId)).toEqual([]);
    const [first] = await alice.client.chat.fetchMessages({ chat: channelId, uids: [firstUid] });
    expect(first!.files ?? []).toEqual([]);
  });

  it('the only message carrying it deleted: the file stays, carried by the message sent meanwhile', async () => {
    const { alice, channelId, fileId, firstUid } = await sentFile();
    let sentUid: string | undefined;
    const outcome = await holder().interleave(
      // Held as it locks the file, or, without that lock, as it marks the file detached.
      { statement: 'select 1 from files where id = $1 for share', params: [fileId], waitsAt: /"files"/ },
      () => alice.client.chat.deleteMessage({ messageUid: firstUid }),
      async () => {
        sentUid = (await alice.client.chat.sendMessage({ to: channelId, text: 'the plan again', files: [fileId] })).uid;
      },
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    expect(await carriers(fileId)).toEqual([sentUid]);
    expect(await fileRow(fileId)).toEqual({ id: fileId, attached_at: expect.any(Number) });
    const [sent] = await alice.client.chat.fetchMessages({ chat: channelId, uids: [sentUid!] });
    expect(sent!.files?.map((file) => file.id)).toEqual([fileId]);
  });
});
