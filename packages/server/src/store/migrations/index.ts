import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_core.js';

/** Numbered migrations, applied in order; a new one is appended here and never edited once released. */
const migrations: Record<string, Migration> = {
  '0001_core': m0001,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
