import type { Command } from 'commander';
import { seedDemo } from '../core/commands/seedDemo.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { formatDemoCredentials, saveDemoCredentials } from './demoCredentials.js';
import { CliError } from './errors.js';
import { hasAnyTeam } from './lookups.js';

export function registerSeedCommand(program: Command): void {
  adminCommand(program, 'seed', 'Fill an empty store with sample data.')
    .requiredOption('--demo', 'the demo team: people, channels with history, direct chats, and the "Aviary Demo" app')
    .action((flags: StoreFlags & OutputFlags) =>
      runAdminCommand(flags, async ({ db, config, now }) => {
        if (await hasAnyTeam(db)) {
          throw new CliError('TeamExists', 'This store already has a team; the demo is seeded only into an empty store (use a fresh --data directory or database).');
        }
        const credentials = await seedDemo(db, now());
        const file = saveDemoCredentials(config.dataDir, credentials);
        return { json: credentials, text: formatDemoCredentials(credentials, { file }) };
      }),
    );
}
