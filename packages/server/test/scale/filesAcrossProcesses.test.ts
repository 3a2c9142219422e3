import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalDeployment, type LocalDeployment } from '../../../../deploy/local/deployment.js';
import { createChannel } from '../../src/core/commands/channels.js';
import { storeContext } from '../../src/core/context.js';
import { openStore, type Store } from '../../src/store/store.js';
import { http } from '../client/harness.js';
import { postgresTestUrl } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { redisTestUrl, uniqueRedisPrefix } from '../helpers/redis.js';
import { adminQuery } from '../helpers/store.js';
import { png } from '../files/upload.js';
import { startS3 } from '../files/s3server.js';
import { deploymentRunnable, whyNotRunnable } from './deployment.js';

if (!deploymentRunnable) console.warn(`Skipping the files across processes suite: ${whyNotRunnable}.`);

const password = 'the files across processes password';

/**
 * Two `aviary serve` processes (child processes, each with a data directory of its own) on one
 * PostgreSQL database, keeping files in one S3 bucket (s3rver on loopback): what one stores, the other
 * serves (docs/reference/files.md "Storage").
 */
describe.runIf(deploymentRunnable)('files across two aviary serve processes sharing an S3 bucket', () => {
  const database = `aviary_files_${randomBytes(6).toString('hex')}`;
  const databaseUrl = Object.assign(new URL(postgresTestUrl), { pathname: `/${database}` }).toString();
  const secretKey = randomBytes(32).toString('base64');
  let s3: Awaited<ReturnType<typeof startS3>> | undefined;
  let deployment: LocalDeployment | undefined;
  let store: Store | undefined;
  let cast: { ann: string; ben: string; channelId: string } | undefined;

  beforeAll(async () => {
    s3 = await startS3();
    await adminQuery(`create database ${database}`);
    deployment = await startLocalDeployment({
      processes: 2,
      databaseUrl,
      redisUrl: redisTestUrl,
      env: {
        AVIARY_LOG_LEVEL: 'warn',
        AVIARY_SECRET_KEY: secretKey,
        AVIARY_REDIS_KEY_PREFIX: uniqueRedisPrefix(),
        AVIARY_S3_BUCKET: s3.config.bucket,
        AVIARY_S3_ENDPOINT: s3.config.endpoint!,
        AVIARY_S3_ACCESS_KEY_ID: s3.config.accessKeyId!,
        AVIARY_S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey!,
        AVIARY_S3_FORCE_PATH_STYLE: '1',
      },
    });
    store = openStore({ databaseUrl, dataDir: tmpdir(), secretKeys: [secretKey] });
    const f = factories(store.db);
    const team = await f.team();
    const [ann, ben] = [await f.person(team.id, { password }), await f.person(team.id, { password })];
    const { channel } = await createChannel(storeContext(store.db), { user: ann, appId: null }, { name: 'shared-files', members: [ben.id] });
    const signIn = async (email: string | null, url: string): Promise<string> => (await http(url, 'POST', '/api/session', { json: { email, password } })).body.sessionToken;
    const [first, second] = deployment.processes;
    cast = { ann: await signIn(ann.email, first.url), ben: await signIn(ben.email, second.url), channelId: channel.id };
  }, 180_000);

  afterAll(async () => {
    await deployment?.stop();
    await store?.close();
    await adminQuery(`drop database if exists ${database} with (force)`);
    await s3?.close();
  }, 60_000);

  const call = async (url: string, session: string, method: string, json: unknown) => {
    const answer = await http(url, 'POST', `/v1/${method}`, { json, headers: { authorization: `Bearer ${session}` } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const fetchFrom = (url: string, session: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, { headers: { authorization: `Bearer ${session}`, ...headers } });

  it('serves from one process, with ranges and renditions, a file uploaded through the other', async () => {
    const { ann, ben, channelId } = cast!;
    const [first, second] = deployment!.processes;
    const bytes = await png(800, 600);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'across.png');
    const uploaded = await fetch(`${first.url}/v1/files.upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${ann}` } });
    expect(uploaded.status).toBe(200);
    const { file } = (await uploaded.json()) as { file: { id: string; url: string; thumbnailUrl: string } };
    await call(first.url, ann, 'chat.sendMessage', { to: channelId, text: 'from the first process', files: [file.id] });

    const served = await fetchFrom(second.url, ben, file.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await fetchFrom(second.url, ben, file.url, { range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
    expect((await call(second.url, ben, 'files.getInfo', { file: file.id })).file.id).toBe(file.id);
    // The first process makes the thumbnail in the background; the second serves it once the row says so.
    const renditions = async () => (await store!.db.selectFrom('files').select('renditions').where('id', '=', file.id).executeTakeFirstOrThrow()).renditions;
    await expect.poll(renditions, { timeout: 60_000, interval: 100 }).toBe('ready');
    const thumbnail = Buffer.from(await (await fetchFrom(second.url, ben, file.thumbnailUrl)).arrayBuffer());
    expect(thumbnail.subarray(8, 12).toString('latin1')).toBe('WEBP');
  });

  it('finishes through one process a resumable upload whose parts went through both', async () => {
    const { ann, ben, channelId } = cast!;
    const [first, second] = deployment!.processes;
    const bytes = randomBytes(700 * 1024);
    const { upload } = await call(first.url, ann, 'files.startUpload', { name: 'across.bin', size: bytes.length });
    const half = 350 * 1024;
    for (const [url, start, end] of [[first.url, 0, half], [second.url, half, bytes.length]] as const) {
      const part = await fetch(`${url}/v1/files.uploadPart?uploadId=${upload.uploadId}&offset=${start}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ann}` },
        body: new Uint8Array(bytes.subarray(start, end)),
      });
      expect(part.status, await part.clone().text()).toBe(200);
    }
    const { file } = await call(first.url, ann, 'files.finishUpload', { uploadId: upload.uploadId });
    await call(second.url, ann, 'chat.sendMessage', { to: channelId, text: 'in parts', files: [file.id] });
    const served = await fetchFrom(second.url, ben, file.url);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    // Deleted through one process: gone for the other too.
    await call(second.url, ann, 'files.delete', { file: file.id });
    expect((await fetchFrom(first.url, ben, file.url)).status).toBe(400);
  });
});
