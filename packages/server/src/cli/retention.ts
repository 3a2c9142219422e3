import type { Command } from 'commander';
import pino from 'pino';
import { createLog } from '../log.js';
import { MAX_RETENTION_DAYS, pruneExpiredMessages } from '../core/retention/pruneMessages.js';
import { setChannelMessageRetention, setTeamMessageRetention } from '../core/commands/retention.js';
import { describeRetention, type RetentionChoice } from '../core/retention/settings.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { CliError } from './errors.js';
import { requireTeam } from './lookups.js';
import { cliActor } from '../core/audit/record.js';

type SetFlags = StoreFlags & OutputFlags & { team?: string; channel?: string; messages: string };

/** `aviary retention show|set|run` (docs/operations.md, "Retention"): how long a team's messages are kept. */
export function registerRetentionCommands(program: Command): void {
  const retention = program.command('retention').description('How long messages are kept, per team and per channel.');

  adminCommand(retention, 'show', 'Print a team’s message retention and its channels’ overrides.')
    .requiredOption('--team <id>', 'the team')
    .action((flags: StoreFlags & OutputFlags & { team: string }) =>
      runAdminCommand(flags, async ({ db }) => {
        await requireTeam(db, flags.team);
        const team = await db.selectFrom('teams').select(['id', 'message_retention_days']).where('id', '=', flags.team).executeTakeFirstOrThrow();
        const channels = await db.selectFrom('channels').select(['id', 'name', 'message_retention_days']).where('team_id', '=', flags.team).orderBy('name').execute();
        const overrides = channels.filter((channel) => channel.message_retention_days !== null);
        return {
          json: { team: { id: team.id, messageRetentionDays: team.message_retention_days }, channels: overrides.map((c) => ({ id: c.id, name: c.name, messageRetentionDays: c.message_retention_days })) },
          text: [`Team ${team.id} keeps messages ${describeRetention(team.message_retention_days, 'team')}.`, ...overrides.map((c) => `  #${c.name} ${c.id}: ${describeRetention(c.message_retention_days, 'channel')}`)].join('\n'),
        };
      }),
    );

  adminCommand(retention, 'set', 'Keep a team’s messages forever or N days (--team), or override it for one channel (--channel).')
    .option('--team <id>', 'the team')
    .option('--channel <id>', 'one channel of a team')
    .requiredOption('--messages <keep>', `"forever", a number of days from 1 to ${MAX_RETENTION_DAYS}, or for a channel "team" (follow the team's)`)
    .action((flags: SetFlags) =>
      runAdminCommand(flags, async (admin) => {
        const { db } = admin;
        if ((flags.team === undefined) === (flags.channel === undefined)) throw new CliError('InvalidUsage', 'Give either --team or --channel.');
        const choice = parseChoice(flags.messages, flags.channel !== undefined);
        if (flags.team !== undefined) {
          await requireTeam(db, flags.team);
          const days = await setTeamMessageRetention(admin, cliActor, { teamId: flags.team, choice: choice as Exclude<RetentionChoice, { keep: 'team' }> });
          return { json: { team: flags.team, messageRetentionDays: days }, text: `Team ${flags.team} now keeps messages ${describeRetention(days, 'team')}.` };
        }
        const channel = await db.selectFrom('channels').select('id').where('id', '=', flags.channel!).executeTakeFirst();
        if (!channel) throw new CliError('InvalidOption', `There is no channel "${flags.channel}".`);
        const days = await setChannelMessageRetention(admin, cliActor, { channelId: channel.id, choice });
        return { json: { channel: channel.id, messageRetentionDays: days }, text: `Channel ${channel.id} now keeps messages ${describeRetention(days, 'channel')}.` };
      }),
    );

  adminCommand(retention, 'run', 'Delete the messages past their retention now, as the servers’ hourly job does.').action((flags: StoreFlags & OutputFlags) =>
    runAdminCommand(flags, async ({ db, config, now }) => {
      // Warnings (bytes storage would not delete) go to stderr: stdout is the command's answer.
      const { messages, files } = await pruneExpiredMessages({ db, config, log: createLog(config, pino.destination(2)) }, now());
      return { json: { messages, files }, text: `Deleted ${messages} messages past their retention, and ${files} files only they carried.` };
    }),
  );
}

function parseChoice(value: string, forChannel: boolean): RetentionChoice {
  if (value === 'forever') return { keep: 'forever' };
  if (value === 'team' && forChannel) return { keep: 'team' };
  const days = Number(value);
  if (/^\d+$/.test(value) && days >= 1 && days <= MAX_RETENTION_DAYS) return { keep: 'days', days };
  throw new CliError('InvalidOption', `--messages must be "forever", a number of days from 1 to ${MAX_RETENTION_DAYS}${forChannel ? ', or "team"' : ''}, not "${value}".`);
}
