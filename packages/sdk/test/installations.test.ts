import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createEventListener, fileInstallationStore, memoryInstallationStore, toUserId, type InstallationStore } from '../src/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aviary-installations-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ada = toUserId('u:aaaaaaaaaaaaaaaa');
const bob = toUserId('u:bbbbbbbbbbbbbbbb');

describe.each([
  ['memory', () => memoryInstallationStore()],
  ['file', () => fileInstallationStore(join(dir, `store-${Math.random().toString(36).slice(2)}.json`))],
] as const)('%s installation store', (_name, makeStore: () => InstallationStore) => {
  it('saves, finds, replaces and deletes by person', async () => {
    const store = makeStore();
    expect(await store.find(ada)).toBeUndefined();
    await store.save({ userId: ada, token: 't1', installedAt: 1 });
    await store.save({ userId: bob, token: 't2', installedAt: 2 });
    await store.save({ userId: ada, token: 't3', installedAt: 3 });
    expect(await store.find(ada)).toEqual({ userId: ada, token: 't3', installedAt: 3 });
    await store.delete(ada);
    expect(await store.find(ada)).toBeUndefined();
    expect(await store.find(bob)).toMatchObject({ token: 't2' });
  });
});

describe('the file installation store', () => {
  it('loses no change made at the same time, writes 0600 and leaves no temporary file', async () => {
    const path = join(dir, 'concurrent', 'installations.json');
    const store = fileInstallationStore(path);
    const people = Array.from({ length: 20 }, (_, index) => toUserId(`u:${'a'.repeat(14)}${String.fromCharCode(97 + index)}a`));
    await Promise.all(people.map((userId, index) => store.save({ userId, token: `t${index}`, installedAt: index })));
    const reopened = fileInstallationStore(path);
    for (const [index, userId] of people.entries()) expect((await reopened.find(userId))?.token).toBe(`t${index}`);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(dir, 'concurrent'))).toEqual(['installations.json']);
  });

  it('refuses a file that is not a store rather than overwrite it', async () => {
    const path = join(dir, 'not-a-store.json');
    await writeFile(path, '{"something": "else"}');
    await expect(fileInstallationStore(path).find(ada)).rejects.toThrow(/is not an Aviary installation store/);
    expect(await readFile(path, 'utf8')).toBe('{"something": "else"}');
  });
});

describe('starting without credentials', () => {
  it.each([
    [{ appId: '', appSecret: 's' }, /needs appId/],
    [{ appId: 'a:x', appSecret: '' }, /needs appSecret/],
    [{} as { appId: string; appSecret: string }, /needs appId/],
  ])('createEventListener and createApp refuse %j', (options, message) => {
    expect(() => createEventListener(options)).toThrow(message);
    expect(() => createApp(options)).toThrow(message);
  });
});
