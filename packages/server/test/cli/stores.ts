import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openStore, type Store } from '../../src/store/store.js';
import { postgresTestUrl, type TestDialect } from '../helpers/dialects.js';
import { adminQuery } from '../helpers/store.js';
import { runCliJson, tempDataDir } from './cli.js';

/** A store the CLI works on: its options, a way to open it in the test, and its removal. */
export interface CliStore {
  /** `--data` (and on PostgreSQL `--database-url`) for every command. */
  on: string[];
  open(): Store;
  remove(): Promise<void>;
}

/**
 * A fresh store of the dialect: a data directory, and on PostgreSQL a database of its own (the CLI
 * takes a plain URL, no schema of its own).
 */
export async function cliStore(dialect: TestDialect): Promise<CliStore> {
  const data = tempDataDir();
  if (dialect === 'sqlite') {
    return { on: ['--data', data.dir], open: () => openStore({ dataDir: data.dir }), remove: async () => data.remove() };
  }
  const database = `aviary_cli_${randomBytes(6).toString('hex')}`;
  const url = Object.assign(new URL(postgresTestUrl), { pathname: `/${database}` }).toString();
  await adminQuery(`create database ${database}`);
  return {
    on: ['--data', data.dir, '--database-url', url],
    open: () => openStore({ databaseUrl: url, dataDir: data.dir }),
    remove: async () => {
      await adminQuery(`drop database if exists ${database} with (force)`);
      data.remove();
    },
  };
}

/** A team with a developer in it, made through the CLI. */
export async function teamWithDeveloper(on: string[], teamName = 'Kestrel Labs'): Promise<{ teamId: string; developerId: string }> {
  const teamId = (await runCliJson<{ id: string }>(['team', 'create', '--name', teamName, ...on])).id;
  const developerId = (
    await runCliJson<{ id: string }>(['user', 'create', '--team', teamId, '--email', 'dev@kestrel.test', '--first-name', 'Dana', '--last-name', 'Dev', ...on])
  ).id;
  return { teamId, developerId };
}

/**
 * What a CLI test makes and removes after each test, last made first: fresh stores of either dialect and
 * scratch directories. Call it inside the `describe`: it registers its own afterEach.
 */
export function cliScratch(prefix: string) {
  const undo: Array<() => unknown> = [];
  afterEach(async () => {
    for (const step of undo.splice(0).reverse()) await step();
  });
  return {
    /** Runs `step` after the test, before what was made earlier is removed. */
    later: (step: () => unknown) => void undo.push(step),
    fresh: async (dialect: TestDialect): Promise<CliStore> => {
      const made = await cliStore(dialect);
      undo.push(() => made.remove());
      return made;
    },
    scratch: (): string => {
      const dir = mkdtempSync(join(tmpdir(), `aviary-${prefix}-`));
      undo.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
  };
}
