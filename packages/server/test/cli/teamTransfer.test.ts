import { sql } from 'kysely';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { seedDemo } from '../../src/core/commands/seedDemo.js';
import { storageKey } from '../../src/core/files/presentFile.js';
import { bytesName } from '../../src/core/transfer/fileBytes.js';
import { S3FileStorage } from '../../src/files/s3Storage.js';
import { startS3 } from '../files/s3server.js';
import { download, png, upload } from '../files/upload.js';
import type { TestServer } from '../helpers/server.js';
import { startServer, type RunningServer } from '../../src/server.js';
import type { Store } from '../../src/store/store.js';
import { dialects } from '../helpers/dialects.js';
import { loopbackHosts } from '../helpers/server.js';
import { runCli, runCliJson } from './cli.js';
import { cliScratch } from './stores.js';

/**
 * Every file of an export (the files' bytes as base64) but the manifest's time and the audit log (an
 * import records itself there: team.imported): two exports of the same team are equal in these.
 */
function exportFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    if (statSync(join(dir, name)).isDirectory() || name === 'audit.jsonl') continue;
    const text = readFileSync(join(dir, name), name.startsWith('files/') || name.startsWith('pictures/') ? 'base64' : 'utf8');
    const manifest = () => JSON.parse(text);
    files[name] = name === 'manifest.json' ? JSON.stringify({ ...manifest(), exportedAt: undefined, kinds: { ...manifest().kinds, audit: undefined } }) : text;
  }
  return files;
}

/** Signs a demo person in on `server`: a caller of methods, and their session token. */
async function signedIn(server: RunningServer, person: { email: string; password: string }) {
  const signIn = await fetch(`${server.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: person.email, password: person.password }) });
  expect(signIn.status).toBe(200);
  const { sessionToken } = (await signIn.json()) as { sessionToken: string };
  const call = async (method: string, params: object) => {
    const response = await fetch(`${server.url}/v1/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionToken}` }, body: JSON.stringify(params) });
    return { status: response.status, body: (await response.json()) as any };
  };
  return { call, sessionToken };
}

const lines = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));

async function serveOn(store: Store, on: string[]): Promise<RunningServer> {
  const at = (flag: string) => (on.includes(flag) ? on[on.indexOf(flag) + 1] : undefined);
  const config = loadConfig({ port: 0, dataDir: at('--data')!, databaseUrl: at('--database-url'), logLevel: 'silent', drainIdleMs: 0, allowedInternalHosts: loopbackHosts }, {});
  return startServer(config, { store });
}

describe('aviary team export and aviary team import', () => {
  const { fresh, later, scratch } = cliScratch('export');
  const target = dialects.includes('postgres') ? 'postgres' : 'sqlite';

  it(`moves the demo team from SQLite to ${target} with every record alike, and a person signs in there and reads the history`, { timeout: 120_000 }, async () => {
    const source = await fresh('sqlite');
    const sourceStore = source.open();
    await sourceStore.migrate();
    const demo = await seedDemo(sourceStore.db, Date.now());
    // The demo team gets files (an image and a text file on one message), and the settings added since the export began.
    const person = demo.users[0];
    const channel = demo.channels.find((candidate) => candidate.members.includes(person.id))!;
    const sourceServer = await serveOn(sourceStore, source.on);
    const sender = await signedIn(sourceServer, person);
    const image = await png(64, 48);
    const uploads = [await upload({ url: sourceServer.url } as TestServer, sender.sessionToken, 'plan.png', image), await upload({ url: sourceServer.url } as TestServer, sender.sessionToken, 'notes.txt', 'the notes')];
    expect(uploads.map((answer) => answer.status)).toEqual([200, 200]);
    const fileIds = uploads.map((answer) => answer.body.file.id as string);
    const sent = await sender.call('chat.sendMessage', { to: channel.id, text: 'the plan and its notes', files: fileIds });
    expect(sent.status).toBe(200);
    // Edited once: its edit is a record keyed by a time (a number), as the others are by text.
    expect((await sender.call('chat.updateMessage', { messageUid: sent.body.uid, text: 'the plan and its notes, as agreed' })).status).toBe(200);
    // A message scheduled for tomorrow holds the notes too: the hold moves with the team.
    const scheduled = await sender.call('chat.scheduleMessage', { to: channel.id, text: 'the notes again', files: [fileIds[1]], sendAt: Date.now() + 86_400_000 });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    // The image's thumbnail and preview are made in the background: the export carries them once made.
    await expect.poll(async () => (await sourceStore.db.selectFrom('files').select('renditions').where('id', '=', fileIds[0]).executeTakeFirstOrThrow()).renditions, { timeout: 30_000 }).toBe('ready');
    // Her picture and the team's icon (she is the demo's admin), each made from an upload: the export carries their squares.
    const pictureFrom = async (method: string) => {
      const uploaded = await upload({ url: sourceServer.url } as TestServer, sender.sessionToken, 'face.png', await png(80, 80));
      const answer = await sender.call(method, { file: uploaded.body.file.id });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body;
    };
    const picture = (await pictureFrom('users.setProfileImage')).user.profileImage as string;
    const icon = (await pictureFrom('team.setIcon')).team.icon as string;
    const pictureIds = [picture, icon].map((url) => url.split('/').pop()!);
    await sourceServer.close(); // and its store
    const settingsStore = source.open();
    const db = settingsStore.db;
    await db.updateTable('teams').set({ broadcast_mention_limit: 7, who_may_invite: 'members', who_may_create_channels: 'admins' }).where('id', '=', demo.teamId).execute();
    await db.updateTable('users').set({ status_text: 'On the train', status_emoji: '🚆', status_expires_at: Date.now() + 3_600_000 }).where('id', '=', person.id).execute();
    await db.insertInto('notification_levels').values({ user_id: person.id, chat_key: channel.id, chat: channel.id, level: 'mute', updated_at: Date.now() }).execute();
    await db.insertInto('notification_dnd').values({ user_id: person.id, schedule: JSON.stringify({ days: [1, 2], start: '22:00', end: '07:00' }), paused_until: null, updated_at: Date.now() }).execute();
    await db.insertInto('team_sign_in').values({
      team_id: demo.teamId, password_enabled: 1, oidc_issuer: 'https://id.example.test', oidc_client_id: 'aviary', oidc_client_secret_sealed: settingsStore.keyring.seal('the client secret'),
      oidc_allowed_domains: '["example.test"]', oidc_create_accounts: 1, updated_at: Date.now(),
    }).execute();
    await db.insertInto('sso_identities').values({ team_id: demo.teamId, issuer: 'https://id.example.test', subject: 'sub-1', user_id: person.id, created_at: Date.now() }).execute();
    await settingsStore.close();

    const out = join(scratch(), 'demo');
    const exported = await runCliJson(['team', 'export', '--team', demo.teamId, '--out', out, '--include-secrets', ...source.on]);
    expect(exported.team).toEqual({ id: demo.teamId, name: expect.any(String) });
    expect(exported.kinds.people.count).toBe(demo.users.length + 1); // and the app's bot
    expect(exported.kinds.messages.count).toBeGreaterThan(50);
    expect(readdirSync(out).sort()).toEqual(
      [
        'apps', 'audit', 'channels', 'do-not-disturb', 'files', 'installs', 'manifest', 'memberships', 'message-edits', 'message-files', 'messages', 'notification-levels', 'people', 'pins', 'reactions',
        'invitations', 'reads', 'saved', 'scheduled', 'scheduled-files', 'sign-in', 'sso-identities', 'team', 'thread-follows', 'threads', 'tokens', 'webhooks',
        'pictures',
      ].flatMap((name) => (name === 'manifest' ? ['manifest.json'] : name === 'files' || name === 'pictures' ? [name, `${name}.jsonl`] : [`${name}.jsonl`])).sort(),
    );
    expect(readdirSync(join(out, 'pictures')).sort()).toEqual(pictureIds.flatMap((id) => ['64', '256', '512'].map((side) => `${id}.${side}.webp`)).sort());
    expect(lines(out, 'pictures.jsonl')).toEqual([
      { id: pictureIds[0], ownerKind: 'person', ownerId: person.id, createdAt: expect.any(Number) },
      { id: pictureIds[1], ownerKind: 'team', ownerId: demo.teamId, createdAt: expect.any(Number) },
    ].sort((a, b) => a.id.localeCompare(b.id)));
    const bytesFolder = fileIds.flatMap((id) => (id === fileIds[0] ? [bytesName(id), bytesName(id, 'preview'), bytesName(id, 'thumbnail')] : [bytesName(id)]));
    expect(readdirSync(join(out, 'files')).sort()).toEqual(bytesFolder.sort());
    expect(readFileSync(join(out, 'files', bytesName(fileIds[0]))).equals(image)).toBe(true);
    expect(exported.fileBytes).toEqual({ folder: 'files', files: 2, bytes: expect.any(Number) });
    expect(lines(out, 'team.jsonl')[0]).toMatchObject({ broadcastMentionLimit: 7, whoMayInvite: 'members', whoMayCreateChannels: 'admins', icon });
    expect(lines(out, 'message-edits.jsonl')).toEqual([expect.objectContaining({ messageUid: sent.body.uid, editedAt: expect.any(Number), editedBy: person.id, previousText: 'the plan and its notes' })]);
    expect(lines(out, 'scheduled-files.jsonl')).toEqual([{ scheduledId: scheduled.body.scheduledMessage.id, fileId: fileIds[1], position: 0 }]);
    expect(lines(out, 'notification-levels.jsonl')).toEqual([expect.objectContaining({ userId: person.id, chatKey: channel.id, level: 'mute' })]);

    const into = await fresh(target);
    const imported = await runCliJson(['team', 'import', '--from', out, ...into.on]);
    expect(imported.teamId).toBe(demo.teamId);
    expect(imported.counts).toEqual(Object.fromEntries(Object.entries(exported.kinds).map(([kind, { count }]: [string, any]) => [kind, count])));

    // Exported again from the new store, every file is the same, record for record.
    const again = join(scratch(), 'again');
    await runCliJson(['team', 'export', '--team', demo.teamId, '--out', again, '--include-secrets', ...into.on]);
    expect(exportFiles(again)).toEqual(exportFiles(out));

    // Into a store whose files are kept in S3, the bytes (and renditions) go to its bucket.
    const s3 = await startS3();
    later(() => s3.close());
    const intoS3 = await fresh(target);
    const s3Env = { AVIARY_S3_BUCKET: s3.config.bucket, AVIARY_S3_ENDPOINT: s3.config.endpoint!, AVIARY_S3_ACCESS_KEY_ID: 'S3RVER', AVIARY_S3_SECRET_ACCESS_KEY: 'S3RVER', AVIARY_S3_FORCE_PATH_STYLE: '1' };
    expect((await runCliJson(['team', 'import', '--from', out, ...intoS3.on], s3Env)).counts.files).toBe(2);
    const bucket = new S3FileStorage(s3.config);
    const inBucket = async (id: string, rendition?: 'thumbnail') => Buffer.concat(await (await bucket.get(storageKey({ id, team_id: demo.teamId }, rendition))).toArray());
    expect((await inBucket(fileIds[0])).equals(image)).toBe(true);
    expect((await inBucket(fileIds[0], 'thumbnail')).equals(readFileSync(join(out, 'files', bytesName(fileIds[0], 'thumbnail'))))).toBe(true);
    expect((await inBucket(fileIds[1])).toString()).toBe('the notes');

    // An export missing a file's bytes is refused, naming the file, and the bytes put before the refusal are removed again.
    const broken = join(scratch(), 'broken');
    cpSync(out, broken, { recursive: true });
    rmSync(join(broken, 'files', bytesName(fileIds[1])));
    const intoBroken = await fresh(target);
    const refused = await runCli(['team', 'import', '--from', broken, ...intoBroken.on, '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringContaining(`the bytes of file "${fileIds[1]}" are missing`) });
    const brokenFiles = join(intoBroken.on[intoBroken.on.indexOf('--data') + 1], 'files');
    expect(existsSync(brokenFiles) ? readdirSync(brokenFiles, { recursive: true }).filter((name) => statSync(join(brokenFiles, String(name))).isFile()) : []).toEqual([]);

    // A file uploaded by nobody of the team is refused before the commit (the store is still empty after the refusal above).
    const stranger = join(scratch(), 'stranger');
    cpSync(out, stranger, { recursive: true });
    const filesJsonl = join(stranger, 'files.jsonl');
    writeFileSync(filesJsonl, readFileSync(filesJsonl, 'utf8').replace(`"uploadedBy":"${person.id}"`, '"uploadedBy":"u:nobody"'));
    const strangerRefused = await runCli(['team', 'import', '--from', stranger, ...intoBroken.on, '--json']);
    expect(JSON.parse(strangerRefused.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringContaining('1 files uploaded by no user of the team') });

    // A picture's URL of the server the team came from (absolute there) becomes its URL here; one naming a picture the export lacks is dropped.
    const moved = join(scratch(), 'moved');
    cpSync(out, moved, { recursive: true });
    const rewrite = (file: string, from: string, to: string) => writeFileSync(join(moved, file), readFileSync(join(moved, file), 'utf8').replace(`"${from}"`, `"${to}"`));
    rewrite('people.jsonl', picture, `https://old.example.test${picture}`);
    rewrite('team.jsonl', icon, `/pictures/${'a'.repeat(26)}`);
    const intoMoved = await fresh(target);
    await runCliJson(['team', 'import', '--from', moved, ...intoMoved.on]);
    const movedStore = intoMoved.open();
    later(() => movedStore.close());
    expect((await movedStore.db.selectFrom('users').select('profile_image').where('id', '=', person.id).executeTakeFirstOrThrow()).profile_image).toBe(picture);
    expect((await movedStore.db.selectFrom('teams').select('icon_url').where('id', '=', demo.teamId).executeTakeFirstOrThrow()).icon_url).toBeNull();

    // A second import is refused, naming an id, and changes nothing.
    const twice = await runCli(['team', 'import', '--from', out, ...into.on, '--json']);
    expect(twice.code).toBe(1);
    expect(JSON.parse(twice.stdout)).toEqual({ error: 'ImportConflict', description: expect.stringContaining(`"${demo.teamId}" is already in this store`) });

    // The provider's client secret was written in clear (--include-secrets) and sealed again with the new store's key.
    const store = into.open();
    const signInRow = await store.db.selectFrom('team_sign_in').selectAll().where('team_id', '=', demo.teamId).executeTakeFirstOrThrow();
    expect(signInRow).toMatchObject({ oidc_issuer: 'https://id.example.test', oidc_allowed_domains: '["example.test"]', oidc_create_accounts: 1 });
    expect(store.keyring.open(signInRow.oidc_client_secret_sealed!)).toBe('the client secret');
    expect(lines(out, 'sign-in.jsonl')[0].oidcClientSecret).toBe('the client secret');
    // The import indexed its messages for search before it returned: none is left queued for the server.
    expect(Number((await sql<{ n: number }>`select count(*) as n from message_search_queue`.execute(store.db)).rows[0].n)).toBe(0);
    // On the new store, a demo person signs in with their password and reads a channel's history and searches it.
    later(() => store.close());
    const server = await serveOn(store, into.on);
    later(() => server.close());
    const { call, sessionToken } = await signedIn(server, person);
    // The message still carries its files, and their bytes (and the image's thumbnail) come from the new store's storage.
    const [carrier] = (await call('chat.fetchMessages', { chat: channel.id, uids: [sent.body.uid] })).body;
    expect(carrier.files.map((file: { id: string }) => file.id)).toEqual(fileIds);
    const served = await download({ url: server.url } as TestServer, sessionToken, `/files/${fileIds[0]}`);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(image)).toBe(true);
    expect((await download({ url: server.url } as TestServer, sessionToken, `/files/${fileIds[1]}`)).bytes.toString()).toBe('the notes');
    const thumbnail = await download({ url: server.url } as TestServer, sessionToken, `/files/${fileIds[0]}?size=thumbnail`);
    expect(thumbnail.bytes.equals(readFileSync(join(out, 'files', bytesName(fileIds[0], 'thumbnail'))))).toBe(true);
    // Her picture and the team's icon are served by the new store, their squares as exported.
    expect((await call('users.getInfo', {})).body.profileImage).toBe(picture);
    expect((await call('team.getInfo', {})).body.team.icon).toBe(icon);
    for (const url of [picture, icon]) {
      const square = await download({ url: server.url } as TestServer, sessionToken, `${url}?size=64`);
      expect(square.status).toBe(200);
      expect(square.bytes.equals(readFileSync(join(out, 'pictures', `${url.split('/').pop()}.64.webp`)))).toBe(true);
    }
    const history = await call('chat.fetchMessages', { chat: channel.id, limit: 100 });
    expect(history.status).toBe(200);
    const stored = lines(out, 'messages.jsonl').filter((message) => message.chatKey === channel.id);
    expect(history.body.map((message: { uid: string }) => message.uid).sort()).toEqual(stored.map((message) => message.uid).sort().slice(-100));
    const word = stored.flatMap((message) => String(message.text).split(/\s+/)).find((candidate: string) => /^[a-z]{5,}$/i.test(candidate));
    expect(word).toBeDefined();
    const found = await call('search.messages', { query: word });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(JSON.stringify(found.body)).toContain(word);
  });
});
