import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { StreamFrame } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionFor } from '../client/harness.js';
import { closeStreams, fence, openStream } from '../stream/harness.js';
import { sweepOrphanFiles } from '../../src/core/files/fileCommands.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, expectApiError, roomyRateLimits } from '../methods/chat-cast.js';
import { download, heldUpload, png, upload, uploadChunked } from './upload.js';

const MAX = 256 * 1024;

afterEach(closeStreams);

/** files.* and chat.sendMessage's `files`, on disk (the embedded default), on both dialects. */
forEachDialect(
  'files',
  (t) => {
    const stored = async () => (await readdir(join(t().testStore.dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => [])).filter((entry) => entry.isFile()).map((entry) => entry.name);

    it('uploads an image, keeps it to its uploader until a message carries it, then shows it to the chat', async () => {
      const { alice, bob, carol, channelId } = await chatCast(t());
      const bytes = await png(40, 30);
      const { status, body } = await upload(t(), alice.token, 'plan.png', bytes);
      expect(status).toBe(200);
      const file = body.file;
      expect(file).toMatchObject({ name: 'plan.png', size: bytes.length, mimeType: 'image/png', uploadedBy: alice.id, inline: true, width: 40, height: 30, url: `/files/${file.id}` });
      expect(await alice.client.files.getInfo({ file: file.id })).toEqual({ file });
      await expectApiError(bob.client.files.getInfo({ file: file.id }), { error: 'UnknownFile', parameter: 'file' });
      expect((await download(t(), bob.token, file.url)).status).toBe(400);

      const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'the plan', files: [file.id] });
      const [message] = await bob.client.chat.fetchMessages({ chat: channelId, uids: [uid] });
      expect(message.files).toEqual([file]);
      expect((await bob.client.files.getInfo({ file: file.id })).file.id).toBe(file.id);
      const served = await download(t(), bob.token, file.url);
      expect(served.status).toBe(200);
      expect(served.bytes.equals(bytes)).toBe(true);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('content-disposition')).toBe('inline; filename="plan.png"; filename*=UTF-8\'\'plan.png');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      const part = await download(t(), bob.token, file.url, { range: 'bytes=1-3' });
      expect({ status: part.status, range: part.headers.get('content-range'), bytes: [...part.bytes] }).toEqual({ status: 206, range: `bytes 1-3/${bytes.length}`, bytes: [...bytes.subarray(1, 4)] });
      expect((await download(t(), bob.token, file.url, { range: `bytes=${bytes.length}-` })).status).toBe(416);
      expect((await bob.client.files.list({ chat: channelId })).files).toEqual([{ file, messageUid: uid }]);
      // Carol is not in the channel.
      await expectApiError(carol.client.files.getInfo({ file: file.id }), { error: 'UnknownFile' });
      expect((await download(t(), carol.token, file.url)).status).toBe(400);
    });

    it('carries the files in the stream’s frame, checked against the protocol', async () => {
      const { alice, bob, team, channelId } = await chatCast(t());
      const db = t().testStore.store.db;
      const bobSession = await sessionFor(t(), await db.selectFrom('users').selectAll().where('id', '=', bob.id).executeTakeFirstOrThrow());
      const stream = await openStream(t(), bobSession);
      const { body } = await upload(t(), alice.token, 'live.png', await png());
      await alice.client.chat.sendMessage({ to: channelId, text: 'live', files: [body.file.id] });
      await fence(t(), team.id, bob.id, [stream]);
      const frame = stream.data().find((candidate) => candidate.type === 'message.created') as any;
      expect(frame.message.files).toEqual([body.file]);
      expect(Value.Check(StreamFrame, frame), JSON.stringify(frame)).toBe(true);
    });

    it('attaches only files the sender uploaded, each once', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const { body } = await upload(t(), alice.token, 'notes.txt', 'some notes');
      expect(body.file).toMatchObject({ mimeType: 'application/octet-stream', inline: false });
      await expectApiError(bob.client.chat.sendMessage({ to: channelId, text: 'mine?', files: [body.file.id] }), { error: 'UnknownFile', parameter: 'files[0]' });
      await expectApiError(alice.client.chat.sendMessage({ to: channelId, text: 'twice', files: [body.file.id, body.file.id] }), { error: 'InvalidParameter', parameter: 'files[1]' });
      await expectApiError(alice.client.chat.sendMessage({ to: channelId, text: 'nothing', files: ['f:aaaaaaaaaaaaaaaa'] }), { error: 'UnknownFile', parameter: 'files[0]' });
      const served = await download(t(), alice.token, body.file.url);
      expect(served.headers.get('content-type')).toBe('application/octet-stream');
      expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename="notes.txt"/);
    });

    it('refuses a file above the limit from its Content-Length, and one that turns out larger while streaming', async () => {
      const { alice } = await chatCast(t());
      // Renditions of earlier tests' images are written after their uploads: wait for them first.
      await t().server.ctx.background.settled();
      const before = await stored();
      const big = Buffer.alloc(MAX + 1, 7);
      const declared = await upload(t(), alice.token, 'big.bin', big);
      expect(declared.status).toBe(413);
      expect(declared.body).toMatchObject({ error: 'FileTooLarge', parameter: 'file', description: /at most 262144 bytes \(256 KiB\)/ });
      // Without Content-Length (chunked), the count stops it at the first byte too many.
      const chunked = await uploadChunked(t(), alice.token, 'big.bin', big);
      expect(chunked).toMatchObject({ status: 413, body: { error: 'FileTooLarge' } });
      expect(await stored()).toEqual(before);
    });

    it('refuses a name that claims an image the bytes are not', async () => {
      const { alice } = await chatCast(t());
      const { status, body } = await upload(t(), alice.token, 'cat.png', '<html><script>alert(1)</script></html>');
      expect(status).toBe(415);
      expect(body).toMatchObject({ error: 'UnsupportedFile', parameter: 'file', description: /says an image \(\.png\), but its bytes are not a type/ });
    });

    it('counts a file once however many messages carry it, and removes its bytes with the last', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const { body } = await upload(t(), alice.token, 'shared.png', await png());
      const first = await alice.client.chat.sendMessage({ to: channelId, text: 'one', files: [body.file.id] });
      const second = await alice.client.chat.sendMessage({ to: bob.id, text: 'two', files: [body.file.id] });
      const count = await t().testStore.store.db.selectFrom('files').select((eb) => eb.fn.countAll<number>().as('n')).where('id', '=', body.file.id).executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
      await t().server.ctx.background.settled();
      await alice.client.chat.deleteMessage({ messageUid: first.uid });
      expect((await bob.client.files.getInfo({ file: body.file.id })).file.id).toBe(body.file.id);
      expect((await stored()).filter((name) => name.startsWith(body.file.id.replace(':', '_')))).not.toEqual([]);
      await alice.client.chat.deleteMessage({ messageUid: second.uid });
      await expectApiError(alice.client.files.getInfo({ file: body.file.id }), { error: 'UnknownFile' });
      expect((await stored()).filter((name) => name.startsWith(body.file.id.replace(':', '_')))).toEqual([]);
    });

    it('deletes one’s own file, takes it out of its messages; another’s only as a team admin', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const { body } = await upload(t(), alice.token, 'a.txt', 'a');
      const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'see', files: [body.file.id] });
      await expectApiError(bob.client.files.delete({ file: body.file.id }), { error: 'PermissionDenied', status: 403, parameter: 'file' });
      expect(await alice.client.files.delete({ file: body.file.id })).toEqual({ file: body.file.id });
      const [message] = await bob.client.chat.fetchMessages({ chat: channelId, uids: [uid] });
      expect(message.files).toBeUndefined();
      expect((await download(t(), bob.token, body.file.url)).status).toBe(400);
    });

    it('takes a deleted file out of its messages live: a message.updated frame without it', async () => {
      const { alice, bob, team, channelId } = await chatCast(t());
      const db = t().testStore.store.db;
      const bobSession = await sessionFor(t(), await db.selectFrom('users').selectAll().where('id', '=', bob.id).executeTakeFirstOrThrow());
      const stream = await openStream(t(), bobSession);
      const gone = (await upload(t(), alice.token, 'gone.txt', 'gone')).body.file;
      const kept = (await upload(t(), alice.token, 'kept.txt', 'kept')).body.file;
      const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'two files', files: [gone.id, kept.id] });
      const { uid: other } = await alice.client.chat.sendMessage({ to: channelId, text: 'no files' });
      await alice.client.files.delete({ file: gone.id });
      await fence(t(), team.id, bob.id, [stream]);
      const updates = stream.data().filter((frame) => frame.type === 'message.updated') as any[];
      expect(updates.map((frame) => [frame.message.uid, frame.message.files])).toEqual([[uid, [kept]]]);
      expect(Value.Check(StreamFrame, updates[0]), JSON.stringify(updates[0])).toBe(true);
      expect(updates.some((frame) => frame.message.uid === other)).toBe(false);
      // The last file going leaves the message without `files`, and says so live too.
      await alice.client.files.delete({ file: kept.id });
      await fence(t(), team.id, bob.id, [stream]);
      const last = stream.data().filter((frame) => frame.type === 'message.updated').at(-1) as any;
      expect(last.message.uid).toBe(uid);
      expect(last.message.files).toBeUndefined();
    });

    it('tells the apps a message concerns that a file left it (chat.messageUpdated), as an edit does', async () => {
      const { team, f, alice, bob, channelId } = await chatCast(t());
      const db = t().testStore.store.db;
      const person = async (id: string) => sessionFor(t(), await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
      const [aliceSession, bobSession] = [await person(alice.id), await person(bob.id)];
      const subscribed = await f.app(team.id, alice.id, { name: 'Subscribed', eventSubscriptions: ['chat.receiveMessage', 'chat.messageUpdated'] });
      const defaults = await f.app(team.id, alice.id, { name: 'Defaults' });
      const sentToBot: Record<string, { uid: string; kept: any }> = {};
      for (const app of [subscribed, defaults]) {
        const bot = await f.bot(app.id);
        const gone = (await upload(t(), aliceSession.sessionToken, 'gone.txt', 'gone')).body.file;
        const kept = (await upload(t(), aliceSession.sessionToken, 'kept.txt', 'kept')).body.file;
        const sent = await aliceSession.call('chat.sendMessage', { to: bot.botUserId, text: 'two files', files: [gone.id, kept.id] });
        expect(sent.status).toBe(200);
        expect((await aliceSession.call('files.delete', { file: gone.id })).status).toBe(200);
        sentToBot[app.id] = { uid: sent.body.uid, kept };
      }
      // A message the app sent into the channel: its own token deleting a file is no news to it; Bob's session deleting the other is.
      const appToken = (await f.install(subscribed.id, bob.id)).token;
      const own = (await upload(t(), appToken, 'own.txt', 'own')).body.file;
      const other = (await upload(t(), appToken, 'other.txt', 'other')).body.file;
      const posted = await t().client(appToken).chat.sendMessage({ to: channelId, text: 'release notes', files: [own.id, other.id] });
      await t().client(appToken).files.delete({ file: own.id });
      expect((await bobSession.call('files.delete', { file: other.id })).status).toBe(200);
      const events = async (appId: string) =>
        (await db.selectFrom('events').select(['name', 'payload']).where('app_id', '=', appId).orderBy('id').execute()).map((row) => ({ name: row.name, ...JSON.parse(row.payload) }));
      const { uid, kept } = sentToBot[subscribed.id];
      const received = await events(subscribed.id);
      expect(received).toMatchObject([
        { name: 'chat.receiveMessage', message: { uid } },
        { name: 'chat.messageUpdated', userId: alice.id, message: { uid, text: 'two files', files: [kept] } },
        { name: 'chat.messageUpdated', userId: bob.id, message: { uid: posted.uid, text: 'release notes' } },
      ]);
      expect(received).toHaveLength(3);
      // The last file gone: the message as it is now has none.
      expect(received[2].message.files).toBeUndefined();
      expect((await events(defaults.id)).map((event) => event.name)).toEqual(['chat.receiveMessage']);
    });

    it('sweeps files no message carries once they are older than the orphan age, by the injectable clock', async () => {
      const { alice, channelId } = await chatCast(t());
      const orphan = (await upload(t(), alice.token, 'o.txt', 'orphan')).body.file;
      const kept = (await upload(t(), alice.token, 'k.txt', 'kept')).body.file;
      await alice.client.chat.sendMessage({ to: channelId, text: 'kept', files: [kept.id] });
      const ctx = t().server.ctx;
      expect(await sweepOrphanFiles({ ...ctx, now: () => Date.now() + 60_000 })).toBe(0);
      expect(await sweepOrphanFiles({ ...ctx, now: () => Date.now() + ctx.config.files.orphanMs + 60_000 })).toBeGreaterThanOrEqual(1);
      await expectApiError(alice.client.files.getInfo({ file: orphan.id }), { error: 'UnknownFile' });
      expect((await alice.client.files.getInfo({ file: kept.id })).file.id).toBe(kept.id);
      expect((await stored()).some((name) => name.startsWith(orphan.id.replace(':', '_')))).toBe(false);
    });
  },
  { ...roomyRateLimits, files: { maxFileBytes: MAX, teamQuotaBytes: 64 * 1024 * 1024 } },
);

describe('quota', () => {
  forEachDialect(
    'a team’s quota',
    (t) => {
      it('refuses from Content-Length what would pass the quota, and counts while streaming', async () => {
        const { alice } = await chatCast(t());
        expect((await upload(t(), alice.token, 'a.bin', Buffer.alloc(60 * 1024, 1))).status).toBe(200);
        const over = await upload(t(), alice.token, 'b.bin', Buffer.alloc(60 * 1024, 1));
        expect(over.status).toBe(413);
        expect(over.body).toMatchObject({ error: 'QuotaExceeded', parameter: 'file', description: /AVIARY_FILE_TEAM_QUOTA_BYTES/ });
        expect(await uploadChunked(t(), alice.token, 'c.bin', Buffer.alloc(60 * 1024, 1))).toMatchObject({ status: 413, body: { error: 'QuotaExceeded' } });
        expect((await upload(t(), alice.token, 'd.bin', Buffer.alloc(20 * 1024, 1))).status).toBe(200);
      });

      it('never counts the same bytes as free for uploads begun at once', async () => {
        const { alice, team } = await chatCast(t());
        // Four files of 40 KiB against 100 KiB, their bodies held until all four have begun or been refused.
        const uploads = ['a', 'b', 'c', 'd'].map((name) => heldUpload(t(), alice.token, `${name}.bin`, Buffer.alloc(40 * 1024, 1)));
        const refused: unknown[] = [];
        for (const { answer } of uploads) void answer.then((answered) => refused.push(answered));
        const receiving = async () =>
          (await t().testStore.store.db.selectFrom('files').select('id').where('team_id', '=', team.id).where('state', '=', 'uploading').execute()).length;
        await expect.poll(async () => (await receiving()) + refused.length).toBe(4);
        const answers = await Promise.all(uploads.map((held) => held.finish()));
        expect(answers.map((answered) => answered.status).sort()).toEqual([200, 200, 413, 413]);
        for (const answered of answers.filter((one) => one.status === 413)) expect(answered.body).toMatchObject({ error: 'QuotaExceeded', parameter: 'file' });
        const stored = await t().testStore.store.db.selectFrom('files').select('size').where('team_id', '=', team.id).execute();
        expect(stored.map((file) => Number(file.size))).toEqual([40 * 1024, 40 * 1024]);
      });
    },
    { ...roomyRateLimits, files: { maxFileBytes: MAX, teamQuotaBytes: 100 * 1024 } },
  );
});
