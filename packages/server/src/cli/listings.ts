// `aviary user list` and `aviary channel list`: people and channels as the API presents them.
import type { Command } from 'commander';
import { presentChannel } from '../core/presenters/channels.js';
import { presentUser } from '../core/presenters/users.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { requireTeam } from './lookups.js';
import { positiveInteger } from './options.js';
import { formatTable } from './table.js';

type ListFlags = StoreFlags & OutputFlags & { team?: string; limit: number };

const limitOption = ['--limit <n>', 'at most this many (1 to 10000)', positiveInteger(10_000), 500] as const;

export function registerUserListCommand(user: Command): void {
  adminCommand(user, 'list', 'List active people and bots, oldest first, as users.getInfo shows them.')
    .option('--team <id>', 'only this team')
    .option(...limitOption)
    .action((flags: ListFlags) =>
      runAdminCommand(flags, async ({ db }) => {
        if (flags.team !== undefined) await requireTeam(db, flags.team);
        const rows = await db
          .selectFrom('users')
          .selectAll()
          .$if(flags.team !== undefined, (query) => query.where('team_id', '=', flags.team!))
          // Deactivated people and the bots of deleted apps are gone from every listing of the API too.
          .where('deactivated_at', 'is', null)
          .orderBy('created_at')
          .orderBy('id')
          .limit(flags.limit)
          .execute();
        const users = rows.map(presentUser);
        const table = formatTable(
          ['ID', 'NAME', 'EMAIL', 'ROLE', 'TEAM'],
          rows.map((row) => [
            row.id,
            `${row.first_name} ${row.last_name}`,
            row.email ?? '-',
            row.bot_app_id !== null ? 'bot' : row.role,
            row.team_id,
          ]),
          'No users.',
        );
        return { json: { users }, text: table };
      }),
    );
}

export function registerChannelCommands(program: Command): void {
  const channel = program.command('channel').description('Look at channels.');
  adminCommand(channel, 'list', 'List a team’s channels, public and private, by name, as channels.list shows them.')
    .requiredOption('--team <id>', 'the team')
    .option(...limitOption)
    .action((flags: ListFlags & { team: string }) =>
      runAdminCommand(flags, async ({ db }) => {
        const team = await requireTeam(db, flags.team);
        const rows = await db
          .selectFrom('channels as c')
          .selectAll('c')
          .select((eb) => eb.selectFrom('channel_members as m').whereRef('m.channel_id', '=', 'c.id').select((m) => m.fn.countAll<number>().as('n')).as('member_count'))
          .where('c.team_id', '=', team.id)
          .orderBy('c.name')
          .orderBy('c.id')
          .limit(flags.limit)
          .execute();
        const channels = rows.map(({ member_count, ...row }) => presentChannel(row, Number(member_count ?? 0)));
        const table = formatTable(
          ['ID', 'NAME', 'TYPE', 'MEMBERS', 'PURPOSE'],
          channels.map((found) => [found.id, found.name, found.type, String(found.memberCount), found.purpose || '-']),
          `No channels in team ${team.id}.`,
        );
        return { json: { channels }, text: table };
      }),
    );
}
