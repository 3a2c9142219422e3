import { appCreatorChoices, type AppCreators } from '@aviary/protocol';
import { Option, type Command } from 'commander';
import { createTeam } from '../core/commands/people.js';
import { updateTeamSettings } from '../core/commands/teams.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { requireTeam } from './lookups.js';
import { registerTeamSignInCommand } from './teamSignIn.js';
import { registerTeamTransferCommands } from './teamTransfer.js';
import { requireText } from './validate.js';
import { cliActor } from '../core/audit/record.js';

export function registerTeamCommands(program: Command): void {
  const team = program.command('team').description('Manage teams.');
  adminCommand(team, 'create', 'Create a team, to set up a fresh store by hand.')
    .requiredOption('--name <name>', 'the team name')
    .action((flags: StoreFlags & OutputFlags & { name: string }) =>
      runAdminCommand(flags, async (admin) => {
        const name = requireText('--name', flags.name);
        const { id } = await createTeam(admin, cliActor, { name });
        return { json: { id }, text: `Created team "${name}" ${id}.` };
      }),
    );

  adminCommand(team, 'update', 'Change a team’s settings.')
    .requiredOption('--team <id>', 'the team')
    .addOption(
      new Option('--app-creators <who>', 'who may create apps: members (members and admins, the default), admins, or everyone (guests too)')
        .choices(appCreatorChoices)
        .makeOptionMandatory(),
    )
    .action((flags: StoreFlags & OutputFlags & { team: string; appCreators: AppCreators }) =>
      runAdminCommand(flags, async (admin) => {
        const found = await requireTeam(admin.db, flags.team);
        const updated = await updateTeamSettings(admin, cliActor, { teamId: found.id, appCreators: flags.appCreators });
        return {
          json: { id: updated.id, appCreators: updated.app_creators },
          text: `In team "${updated.name}" ${updated.id}, ${updated.app_creators} may now create apps.`,
        };
      }),
    );

  registerTeamSignInCommand(team);
  registerTeamTransferCommands(team);
}
