import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { saveDemoCredentials } from '../../src/cli/demoCredentials.js';
import { openStore, sqliteFile } from '../../src/store/store.js';

const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe('the data directory and database files are private to the server’s user', () => {
  const made: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'aviary-perm-'));
    made.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('a new data directory is 0700 and the SQLite file, -wal and -shm are 0600, whatever the umask', async () => {
    const previous = process.umask(0o000);
    try {
      const dataDir = join(tempDir(), 'data');
      const store = openStore({ dataDir });
      await store.migrate();
      const file = sqliteFile(dataDir);
      expect(modeOf(dataDir)).toBe(0o700);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(path), path).toBe(0o600);
      await store.close();
    } finally {
      process.umask(previous);
    }
  });

  it('an existing world-readable directory and database are tightened when the store opens them', async () => {
    const dataDir = tempDir();
    const first = openStore({ dataDir });
    await first.migrate();
    await first.close();
    const file = sqliteFile(dataDir);
    chmodSync(dataDir, 0o755);
    chmodSync(file, 0o644);
    writeFileSync(`${file}-wal`, '');
    chmodSync(`${file}-wal`, 0o644);

    const again = openStore({ dataDir });
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(`${file}-wal`)).toBe(0o600);
    await again.close();
  });

  it('the demo credentials are 0600 in a 0700 directory', () => {
    const dataDir = join(tempDir(), 'demo');
    const file = saveDemoCredentials(dataDir, { people: [] } as never);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
  });
});
