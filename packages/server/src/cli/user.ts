import { personRoles } from '@aviary/protocol';
import { Option, type Command } from 'commander';
import { createPerson } from '../core/commands/people.js';
import { cliActor } from '../core/audit/record.js';
import { presentUser } from '../core/presenters/users.js';
import type { UsersTable } from '../store/schema.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { asCliError, optionsNamed } from './coreRefusals.js';
import { CliError } from './errors.js';
import { isEmailTaken, requireTeam } from './lookups.js';
import { withRequiredOptions } from './options.js';

interface CreateUserFlags extends StoreFlags, OutputFlags {
  team: string;
  email: string;
  firstName: string;
  lastName: string;
  password?: string;
  role: UsersTable['role'];
  timezone: string;
}

/** Registers `aviary user` and `user create`; returns it, for the commands other files add. */
export function registerUserCommands(program: Command): Command {
  const user = program.command('user').description('Manage people.');
  withRequiredOptions(adminCommand(user, 'create', 'Create a person in a team; prints them as users.getInfo would.'), {
    '--team <id>': 'the team they join',
    '--email <address>': 'their email, unique in the team',
    '--first-name <name>': 'their first name',
    '--last-name <name>': 'their last name',
  })
    .option('--password <password>', 'lets them sign in to the web client (at least 8 characters, not one of the commonest leaked passwords)')
    .addOption(new Option('--role <role>', 'their role in the team').choices(personRoles).default('user'))
    .option('--timezone <zone>', 'their IANA time zone, such as Europe/Paris (a UTC offset such as +01:00 is taken as a zone that has it)', 'UTC')
    .action((flags: CreateUserFlags) =>
      runAdminCommand(flags, async (admin) => {
        const { db, now } = admin;
        const team = await requireTeam(db, flags.team);
        if (await isEmailTaken(db, team.id, flags.email)) {
          throw new CliError('EmailTaken', `${flags.email.trim().toLowerCase()} already belongs to someone in team ${team.id}.`);
        }
        const { email, firstName, lastName, password, role, timezone } = flags;
        const person = await asCliError(() => createPerson(admin, cliActor, { teamId: team.id, email, firstName, lastName, password, role, timezone }), personOptions);
        const created = presentUser(person, now());
        return {
          json: created,
          text: `Created ${created.firstName} ${created.lastName} <${created.email}> ${created.id} (${created.role}) in team ${team.id}.`,
        };
      }),
    );
  return user;
}

const personOptions = optionsNamed({
  email: '--email',
  firstName: '--first-name',
  lastName: '--last-name',
  password: '--password',
  role: '--role',
  timezone: '--timezone',
});
