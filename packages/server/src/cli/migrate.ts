import type { Command } from 'commander';
import { migrationProvider } from '../store/migrations/index.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';

/**
 * `aviary migrate`: brings the store to this version's schema and exits. `serve` migrates too, but with
 * several processes on one database (docs/deploy.md) it is run once, before they start, so that an
 * upgrade's migration runs in one place while the processes are replaced one at a time.
 */
export function registerMigrateCommand(program: Command): void {
  adminCommand(program, 'migrate', "Bring the store to this version's schema and exit (run once before starting several serve processes).").action(
    (flags: StoreFlags & OutputFlags) =>
      // runAdminCommand migrates every store it opens; what is left is to say where the store stands.
      runAdminCommand(flags, async () => {
        const schema = Object.keys(await migrationProvider.getMigrations()).at(-1);
        return { json: { schema }, text: `The store's schema is up to date (${schema}).` };
      }),
  );
}
