import { resolve } from 'node:path';
import type { Command } from 'commander';
import { exportTeam, type ExportScope } from '../core/transfer/exportTeam.js';
import type { Manifest } from '../core/transfer/format.js';
import { importTeam } from '../core/transfer/importTeam.js';
import { PICTURES_PATH } from '../core/pictures/pictures.js';
import { linkTo } from '../core/webLinks.js';
import { TransferRefusal } from '../core/transfer/refusal.js';
import { fileStorageFor } from '../files/storage.js';
import { withReadSnapshot } from '../store/readSnapshot.js';
import { adminCommand, runAdminCommand, type AdminContext, type CommandOutput, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { CliError } from './errors.js';
import { requireUser } from './lookups.js';
import { positiveInteger } from './options.js';
import { importSlackCommand } from './slackImport.js';
import { cliActor, recordAudit } from '../core/audit/record.js';

type ExportFlags = StoreFlags & OutputFlags & {
  team?: string;
  channel?: string;
  person?: string;
  since?: string;
  until?: string;
  out: string;
  includeSecrets?: boolean;
  batch: number;
};

type ImportFlags = StoreFlags & OutputFlags & { from?: string; slack?: string; team?: string; teamName?: string };

/** `aviary team export` and `aviary team import` (docs/operations.md, "Team export and import"). */
export function registerTeamTransferCommands(team: Command): void {
  adminCommand(team, 'export', 'Write a whole team as JSON lines (--team), or a compliance export of one channel’s or one person’s messages (--channel, --person).')
    .requiredOption('--out <dir>', 'the directory to write (new or empty)')
    .option('--team <id>', 'the team to export whole')
    .option('--include-secrets', 'also write the apps’ secrets and the token hashes of installs (tokens.jsonl); keep such an export as safe as the store')
    .option('--channel <id>', 'compliance export: the messages of this channel only')
    .option('--person <id>', 'compliance export: the messages this person sent, and the direct messages sent to them')
    .option('--since <time>', 'compliance export: messages from this time on (ISO 8601, such as 2026-01-31 or 2026-01-31T12:00:00Z)')
    .option('--until <time>', 'compliance export: messages before this time (ISO 8601)')
    .option('--batch <n>', 'rows per query, 1 to 10000: the most rows held in memory at once', positiveInteger(10_000), 1000)
    .action((flags: ExportFlags) => runAdminCommand(flags, (admin) => runExport(admin, flags)));

  adminCommand(team, 'import', 'Read a team written by aviary team export into this store, keeping its ids (--from), or a Slack workspace export (--slack).')
    .option('--from <dir>', 'a directory written by aviary team export')
    .option('--slack <zip|dir>', 'a Slack workspace export: its zip, or the unzipped folder (users.json, channels.json and a folder per channel)')
    .option('--team <id>', 'with --slack: the team to import into (people are matched by email)')
    .option('--team-name <name>', 'with --slack and no --team: the name of the new team to import into')
    .action((flags: ImportFlags) =>
      runAdminCommand(flags, async (admin) => {
        if ((flags.from === undefined) === (flags.slack === undefined)) throw new CliError('InvalidUsage', 'Give either --from <dir> (an Aviary export) or --slack <export.zip|dir>.');
        if (flags.slack !== undefined) return withRefusals(() => importSlackCommand(admin, resolve(flags.slack!), flags));
        if (flags.team !== undefined || flags.teamName !== undefined) {
          throw new CliError('InvalidUsage', '--team and --team-name are for --slack: an Aviary export brings its own team, ids kept.');
        }
        return withRefusals(async () => {
          const summary = await importTeam(admin.db, resolve(flags.from!), {
            storage: fileStorageFor(admin.config),
            pictureUrl: (id) => linkTo(admin.config, `${PICTURES_PATH}${id}`),
            recordedAs: { actor: cliActor, at: admin.now() },
            onKind: (kind, count) => process.stderr.write(`Imported ${count} ${kind}.\n`),
          });
          const secrets = summary.appsWithNewSecrets > 0 ? ` ${summary.appsWithNewSecrets} app(s) got a new secret (the export held none): give it to their developers.` : '';
          return {
            json: summary,
            text: `Imported team "${summary.teamName}" ${summary.teamId}: ${countsText(summary.counts)}. Sessions are not carried: people sign in again.${secrets}`,
          };
        });
      }),
    );
}

async function runExport(admin: AdminContext, flags: ExportFlags): Promise<CommandOutput> {
  const out = resolve(flags.out);
  const { teamId, scope } = await exportScope(admin, flags);
  return withRefusals(async () => {
    const manifest = await withReadSnapshot(admin.store, admin.config.dataDir, (db) =>
      exportTeam(db, teamId, scope, { outDir: out, includeSecrets: flags.includeSecrets === true, storage: fileStorageFor(admin.config), batchSize: flags.batch, now: admin.now() }),
    );
    await recordAudit(admin.db, { teamId, actor: cliActor, at: admin.now(), action: 'team.exported', target: { kind: scope.kind, id: scope.kind === 'channel' ? scope.channelId : scope.kind === 'person' ? scope.userId : teamId }, details: { includeSecrets: flags.includeSecrets === true } });
    return { json: { out, ...manifest }, text: `Exported ${describeScope(manifest)} to ${out}: ${countsText(countsOf(manifest))}.` };
  });
}

/** The team to read and what of it: a whole team, or one channel's or person's messages in a time range. */
async function exportScope(admin: AdminContext, flags: ExportFlags): Promise<{ teamId: string; scope: ExportScope }> {
  const given = [flags.team !== undefined && '--team', flags.channel !== undefined && '--channel', flags.person !== undefined && '--person'].filter(Boolean);
  if (given.length !== 1) throw new CliError('InvalidUsage', 'Give exactly one of --team (the whole team), --channel or --person (a compliance export).');
  const since = timeOption('--since', flags.since);
  const until = timeOption('--until', flags.until);
  if (flags.team !== undefined) {
    if (since !== null || until !== null) throw new CliError('InvalidUsage', '--since and --until are for a compliance export (--channel or --person).');
    return { teamId: flags.team, scope: { kind: 'team' } };
  }
  if (since !== null && until !== null && since >= until) throw new CliError('InvalidUsage', '--since must be before --until.');
  if (flags.includeSecrets) throw new CliError('InvalidUsage', '--include-secrets is for a whole team’s export (--team).');
  if (flags.channel !== undefined) {
    const channel = await admin.db.selectFrom('channels').select(['id', 'team_id']).where('id', '=', flags.channel).executeTakeFirst();
    if (!channel) throw new CliError('InvalidOption', `There is no channel "${flags.channel}".`);
    return { teamId: channel.team_id, scope: { kind: 'channel', channelId: channel.id, since, until } };
  }
  const person = await requireUser(admin.db, flags.person!);
  return { teamId: person.team_id, scope: { kind: 'person', userId: person.id, since, until } };
}

function timeOption(option: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new CliError('InvalidUsage', `${option} must be a date or time in ISO 8601, such as 2026-01-31 or 2026-01-31T12:00:00Z, not "${value}".`);
  return time;
}

function describeScope(manifest: Manifest): string {
  const team = `team "${manifest.team.name}" ${manifest.team.id}`;
  if (manifest.scope.kind === 'channel') return `the messages of channel ${manifest.scope.channelId} of ${team}`;
  if (manifest.scope.kind === 'person') return `the messages of ${manifest.scope.userId} in ${team}`;
  return team;
}

const countsOf = (manifest: Manifest): Record<string, number> => Object.fromEntries(Object.entries(manifest.kinds).map(([kind, { count }]) => [kind, count]));
const countsText = (counts: Record<string, number>): string => Object.entries(counts).map(([kind, count]) => `${count} ${kind}`).join(', ');

/** An export's or import's refusal as the command's error, under its code. */
async function withRefusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TransferRefusal) throw new CliError(error.code, error.message);
    throw error;
  }
}
