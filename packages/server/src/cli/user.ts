import { Option, type Command } from 'commander';
import { createPerson } from '../core/commands/people.js';
import { presentUser } from '../core/presenters/users.js';
import type { UsersTable } from '../store/schema.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { CliError } from './errors.js';
import { isEmailTaken, requireTeam } from './lookups.js';
import { requireEmail, requirePassword, requireText, requireTimezone } from './validate.js';

interface CreateUserFlags extends StoreFlags, OutputFlags {
  team: string;
  email: string;
  firstName: string;
  lastName: string;
  password?: string;
  role: UsersTable['role'];
  timezone: string;
}

export function registerUserCommands(program: Command): void {
  const user = program.command('user').description('Manage people.');
  adminCommand(user, 'create', 'Create a person in a team; prints them as users.getInfo would.')
    .requiredOption('--team <id>', 'the team they join')
    .requiredOption('--email <address>', 'their email, unique in the team')
    .requiredOption('--first-name <name>', 'their first name')
    .requiredOption('--last-name <name>', 'their last name')
    .option('--password <password>', 'lets them sign in to the web client (at least 8 characters)')
    .addOption(new Option('--role <role>', 'their role in the team').choices(['user', 'admin', 'guest']).default('user'))
    .option('--timezone <offset>', 'their UTC offset, such as +01:00', '+00:00')
    .action((flags: CreateUserFlags) =>
      runAdminCommand(flags, async ({ db, now }) => {
        const team = await requireTeam(db, flags.team);
        const email = requireEmail(flags.email);
        const person = {
          teamId: team.id,
          email,
          firstName: requireText('--first-name', flags.firstName),
          lastName: requireText('--last-name', flags.lastName),
          password: flags.password === undefined ? undefined : requirePassword(flags.password),
          role: flags.role,
          timezone: requireTimezone(flags.timezone),
        };
        if (await isEmailTaken(db, team.id, email)) throw new CliError('EmailTaken', `${email.toLowerCase()} already belongs to someone in team ${team.id}.`);
        const created = presentUser(await createPerson(db, { ...person, now: now() }));
        return {
          json: created,
          text: `Created ${created.firstName} ${created.lastName} <${created.email}> ${created.id} (${created.role}) in team ${team.id}.`,
        };
      }),
    );
}
