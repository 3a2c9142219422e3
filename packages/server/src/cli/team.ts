import type { Command } from 'commander';
import { createTeam } from '../core/commands/people.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { requireText } from './validate.js';

export function registerTeamCommands(program: Command): void {
  const team = program.command('team').description('Manage teams.');
  adminCommand(team, 'create', 'Create a team, to set up a fresh store by hand.')
    .requiredOption('--name <name>', 'the team name')
    .action((flags: StoreFlags & OutputFlags & { name: string }) =>
      runAdminCommand(flags, async ({ db, now }) => {
        const name = requireText('--name', flags.name);
        const { id } = await createTeam(db, { name, now: now() });
        return { json: { id }, text: `Created team "${name}" ${id}.` };
      }),
    );
}
