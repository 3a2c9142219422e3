import type { Command } from 'commander';
import type { MigrationPlan } from '../store/migrator.js';
import type { Store } from '../store/store.js';
import { adminCommand, runAdminCommand, type CommandOutput, type OutputFlags, type StoreFlags } from './adminCommand.js';

interface MigrateFlags extends StoreFlags, OutputFlags {
  dryRun?: boolean;
}

/**
 * `aviary migrate`: brings the store to this version's schema, says what it applied, and exits. `serve`
 * migrates too, but with several processes on one database (docs/deploy.md) it is run once, before they
 * start, so that an upgrade's migration runs in one place while the processes are replaced one at a time.
 */
export function registerMigrateCommand(program: Command): void {
  adminCommand(program, 'migrate', "Bring the store to this version's schema, print the migrations applied, and exit (run once before starting several serve processes).")
    .option('--dry-run', 'list the migrations that would be applied, and change nothing')
    .action((flags: MigrateFlags) => runAdminCommand(flags, ({ store }) => migrate(store, flags.dryRun === true), { migrate: false }));
}

async function migrate(store: Store, dryRun: boolean): Promise<CommandOutput> {
  if (dryRun) {
    const { renamed, pending, latest } = await store.planMigrations();
    return describe(false, renamed, pending, latest);
  }
  const { renamed, applied, latest } = await store.migrate();
  return describe(true, renamed, applied, latest);
}

/** What migrating did (`done`) or would do, for a person and as JSON. */
function describe(done: boolean, renamed: MigrationPlan['renamed'], migrations: string[], latest: string): CommandOutput {
  const [rename, apply, then] = done ? ['Renamed', 'Applied', 'is now'] : ['Would rename', 'Would apply', 'would then be'];
  const lines = [
    ...renamed.map(({ from, to }) => `${rename} the record of ${from} to ${to} (its name before Aviary 0.10.0).`),
    ...(migrations.length > 0 ? [`${apply} ${migrations.length === 1 ? 'one migration' : `${migrations.length} migrations`}:`, ...migrations.map((name) => `  ${name}`)] : []),
    migrations.length > 0 ? `The store's schema ${then} ${latest}.` : `Nothing to apply: the store's schema is up to date (${latest}).`,
  ];
  return { json: { schema: latest, [done ? 'applied' : 'pending']: migrations, renamed }, text: lines.join('\n') };
}
