import type { Command } from 'commander';
import { loadConfig, type Config, type ConfigInput } from '../config.js';
import { openStore, type Db, type Store } from '../store/store.js';
import { reportFailure, toCliError } from './errors.js';
import type { CommandContext } from '../core/context.js';
import { tellNobody } from '../core/effects/effects.js';

/** Where the store is: every command takes these; the environment fills the gaps through loadConfig. */
export interface StoreFlags {
  data?: string;
  databaseUrl?: string;
}

export interface OutputFlags {
  json?: boolean;
}

/** What a CLI command takes: a CommandContext that tells nobody after a commit (a running server's worker polls). */
export interface AdminContext extends CommandContext {
  store: Store;
  db: Db;
  config: Config;
  now: () => number;
}

/** What a command prints: one JSON object with --json, readable text otherwise. */
export interface CommandOutput {
  json: object;
  text: string;
}

export function withStoreOptions(command: Command): Command {
  return command
    .option('--data <dir>', 'data directory, SQLite lives under it (env AVIARY_DATA_DIR; default ./data)')
    .option('--database-url <url>', 'use this PostgreSQL database instead of SQLite (env DATABASE_URL)');
}

/** A command that opens the store, does one thing and prints its result: every command but serve. */
export function adminCommand(parent: Command, name: string, description: string): Command {
  return withStoreOptions(parent.command(name).description(description)).option(
    '--json',
    'print exactly one JSON object on stdout (errors as {"error","description"})',
  );
}

export function configFrom(flags: StoreFlags, more: ConfigInput = {}): Config {
  return loadConfig({ dataDir: flags.data, databaseUrl: flags.databaseUrl, ...more });
}

/**
 * Opens and migrates the store (so a fresh one works), runs the command, prints, and always closes.
 * `migrate: false` leaves the migrating to the command (`aviary migrate`).
 */
export async function runAdminCommand(
  flags: StoreFlags & OutputFlags,
  command: (admin: AdminContext) => Promise<CommandOutput>,
  { migrate = true }: { migrate?: boolean } = {},
): Promise<void> {
  let store: Store | undefined;
  try {
    const config = configFrom(flags);
    store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, secretKeys: config.secretKeys });
    if (migrate) await store.migrate();
    const output = await command({ store, db: store.db, config, now: Date.now, afterCommit: tellNobody });
    process.stdout.write(flags.json ? `${JSON.stringify(output.json)}\n` : `${output.text}\n`);
  } catch (error) {
    reportFailure(toCliError(error), flags.json === true);
  } finally {
    await store?.close();
  }
}
