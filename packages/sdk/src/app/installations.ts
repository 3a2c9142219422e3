/**
 * Where an app keeps the user token each person's `app.install` hands it, so that a later event of that
 * person can call the API as them. Two implementations: in memory (tests, one process) and a JSON file
 * (a small app on one machine). A database-backed store only has to implement `InstallationStore`.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { UserId } from '../types.js';

export interface Installation {
  userId: UserId;
  /** The user token from `app.install`: it acts as this person, for this app only. */
  token: string;
  /** Milliseconds since the epoch. */
  installedAt: number;
}

export interface InstallationStore {
  save(installation: Installation): Promise<void>;
  find(userId: UserId): Promise<Installation | undefined>;
  delete(userId: UserId): Promise<void>;
}

export function memoryInstallationStore(): InstallationStore {
  const installations = new Map<UserId, Installation>();
  return {
    save: async (installation) => void installations.set(installation.userId, { ...installation }),
    find: async (userId) => {
      const found = installations.get(userId);
      return found && { ...found };
    },
    delete: async (userId) => void installations.delete(userId),
  };
}

interface StoreFile {
  version: 1;
  installations: Record<string, Installation>;
}

/**
 * A JSON file, readable only by its owner (0600: it holds tokens). Each change is written to a fresh
 * file beside it and renamed over it, so that a crash leaves the old file or the new one, never half of
 * one; changes are applied one at a time, in order, so that none is lost.
 */
export function fileInstallationStore(path: string): InstallationStore {
  let loaded: Promise<StoreFile> | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const load = () => (loaded ??= readStoreFile(path));
  function change(apply: (file: StoreFile) => void): Promise<void> {
    const next = queue.then(async () => {
      const file = await load();
      apply(file);
      await writeAtomically(path, JSON.stringify(file, null, 2));
    });
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    save: (installation) => change((file) => void (file.installations[installation.userId] = { ...installation })),
    find: async (userId) => {
      const found = (await load()).installations[userId];
      return found && { ...found };
    },
    delete: (userId) => change((file) => void delete file.installations[userId]),
  };
}

async function readStoreFile(path: string): Promise<StoreFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, installations: Object.create(null) };
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (!isStoreFile(parsed)) throw new Error(`${path} is not an Aviary installation store (expected {"version": 1, "installations": {…}})`);
  return { version: 1, installations: Object.assign(Object.create(null), parsed.installations) };
}

function isStoreFile(value: unknown): value is StoreFile {
  if (typeof value !== 'object' || value === null) return false;
  const { version, installations } = value as Partial<StoreFile>;
  return version === 1 && typeof installations === 'object' && installations !== null && !Array.isArray(installations);
}

async function writeAtomically(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, content, { mode: 0o600 });
    // The mode of writeFile is filtered by the umask; the token file must be 0600 whatever it is.
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
