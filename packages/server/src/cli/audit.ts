import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { exportAudit } from '../core/audit/exportAudit.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { CliError } from './errors.js';
import { requireTeam } from './lookups.js';
import { positiveInteger } from './options.js';

export type AuditExportFlags = StoreFlags & OutputFlags & { team: string; since?: string; until?: string; action?: string; out: string; batch: number };

/** `aviary audit export` (docs/operations.md, "Audit log"): the log is read-only here too; only the retention job deletes rows. */
export function registerAuditCommands(program: Command): void {
  const audit = program.command('audit').description('A team’s audit log: who did what, when, from where.');
  adminCommand(audit, 'export', 'Write a team’s audit log as JSON lines, newest first.')
    .requiredOption('--team <id>', 'the team')
    .requiredOption('--out <file>', 'the file to write (must not exist)')
    .option('--since <time>', 'rows from this time on (ISO 8601, such as 2026-01-31 or 2026-01-31T12:00:00Z)')
    .option('--until <time>', 'rows before this time (ISO 8601)')
    .option('--action <prefix>', 'only actions starting with this, such as "session." or "app.created"')
    .option('--batch <n>', 'rows per query, 1 to 10000', positiveInteger(10_000), 1000)
    .action((flags: AuditExportFlags) => runAdminCommand(flags, ({ db }) => runAuditExport(db, flags)));
}

export async function runAuditExport(db: Parameters<typeof exportAudit>[0], flags: AuditExportFlags) {
  await requireTeam(db, flags.team);
  const since = timeOption('--since', flags.since);
  const until = timeOption('--until', flags.until);
  if (since !== undefined && until !== undefined && since >= until) throw new CliError('InvalidUsage', '--since must be before --until.');
  const out = resolve(flags.out);
  if (existsSync(out)) throw new CliError('InvalidOption', `${out} exists already; give --out a new file.`);
  const rows = await exportAudit(db, flags.team, { since, until, action: flags.action }, { outFile: out, pageSize: flags.batch });
  return { json: { out, rows }, text: `Wrote ${rows} audit log rows of team ${flags.team} to ${out}.` };
}

function timeOption(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new CliError('InvalidUsage', `${option} must be a date or time in ISO 8601, such as 2026-01-31 or 2026-01-31T12:00:00Z, not "${value}".`);
  return time;
}
