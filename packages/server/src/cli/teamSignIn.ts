import { Option, type Command } from 'commander';
import { cliActor } from '../core/audit/record.js';
import { allowPasswordsAgain } from '../core/commands/signInSettings.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { requireTeam } from './lookups.js';

/**
 * The break-glass of single sign-on (docs/security.md, "Single sign-on"): whoever runs the server can
 * let a team's people sign in with their passwords again, when its provider is down or misconfigured.
 * Only `on`: switching passwords off is a team admin's choice, made where the provider is checked.
 */
export function registerTeamSignInCommand(team: Command): void {
  adminCommand(team, 'sign-in', 'Let a team sign in with passwords again (the break-glass when its single sign-on fails).')
    .requiredOption('--team <id>', 'the team')
    .addOption(new Option('--password <on>', 'on: people may sign in with their passwords again').choices(['on']).makeOptionMandatory())
    .action((flags: StoreFlags & OutputFlags & { team: string; password: 'on' }) =>
      runAdminCommand(flags, async (admin) => {
        const found = await requireTeam(admin.db, flags.team);
        await allowPasswordsAgain(admin, cliActor, { teamId: found.id });
        return { json: { id: found.id, passwordEnabled: true }, text: `People of team "${found.name}" ${found.id} may sign in with their passwords again.` };
      }),
    );
}
