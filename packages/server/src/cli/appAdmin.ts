// `aviary app list|show|update|delete`: apps as the developer methods present them, changed through core.
import type { Command } from 'commander';
import { deleteApp, updateApp } from '../core/commands/apps.js';
import { presentDeveloperApp, type DeveloperAppModel } from '../core/presenters/apps.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { allowedOriginWording, asCliError, eventWording, optionsNamed } from './coreRefusals.js';
import { CliError } from './errors.js';
import { readJsonFile } from './jsonFile.js';
import { requireApp } from './lookups.js';
import { positiveInteger } from './options.js';
import { formatTable, isoTime } from './table.js';
import { cliActor } from '../core/audit/record.js';

type Flags<T> = StoreFlags & OutputFlags & T;

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerAppAdminCommands(app: Command): void {
  adminCommand(app, 'list', 'List apps, oldest first, as the developer methods show them (without their secrets).')
    .option('--team <id>', 'only the apps of this team')
    .option('--developer <userId>', 'only the apps this person develops')
    .option('--limit <n>', 'at most this many (1 to 1000)', positiveInteger(1000), 200)
    .action((flags: Flags<{ team?: string; developer?: string; limit: number }>) =>
      runAdminCommand(flags, async ({ db }) => {
        const rows = await db
          .selectFrom('apps')
          .selectAll()
          .$if(flags.team !== undefined, (query) => query.where('team_id', '=', flags.team!))
          .$if(flags.developer !== undefined, (query) => query.where('developer_id', '=', flags.developer!))
          .orderBy('created_at')
          .orderBy('id')
          .limit(flags.limit)
          .execute();
        const apps = rows.map((row) => presentDeveloperApp(row, { withSecret: false }));
        const table = formatTable(
          ['ID', 'NAME', 'TEAM', 'DEVELOPER', 'LISTENER URL'],
          apps.map((found) => [found.id, found.name, found.teamId, found.developerId, found.listenerUrl ?? '-']),
          'No apps.',
        );
        return { json: { apps }, text: table };
      }),
    );

  adminCommand(app, 'show', 'Show one app as its developer sees it through the developer methods.')
    .requiredOption('--app <id>', 'the app')
    .option('--show-secret', 'include the app secret (it signs every event; keep it out of logs)')
    .action((flags: Flags<{ app: string; showSecret?: boolean }>) =>
      runAdminCommand(flags, async ({ db }) => {
        const shown = presentDeveloperApp(await requireApp(db, flags.app), { withSecret: flags.showSecret === true });
        return { json: { app: shown }, text: describeApp(shown) };
      }),
    );

  adminCommand(app, 'update', 'Change an app’s fields, checked as the developer methods check them; fields not given stay.')
    .requiredOption('--app <id>', 'the app')
    .option('--name <name>', 'the app name')
    .option('--description <text>', 'what the app does; "" clears it')
    .option('--icon <url>', 'an http(s) URL of its icon; "" clears it')
    .option('--listener-url <url>', 'the http(s) URL its events are POSTed to; "" clears it')
    .option('--configuration-url <url>', 'an http(s) URL of its settings page; "" clears it')
    .option('--allowed-origin <origin>', 'an origin its widget and browser tokens may also go to (repeatable; replaces the list)', collect, [])
    .option('--no-allowed-origins', 'clear the allowed origins')
    .option('--flock-naming', 'turn on Flock-compatible naming: its events and widget URLs also carry Flock’s names (docs/flock-compatibility.md)')
    .option('--no-flock-naming', 'turn Flock-compatible naming off')
    .option('--event <name>', 'an event the app receives (repeatable; replaces its subscriptions)', collect, [])
    .option('--default-events', 'back to the default subscriptions, the events of the specification')
    .option('--integrations-file <path>', 'a JSON file holding the whole integrations object; {} removes them all')
    .action((flags: Flags<AppUpdateFlags>) =>
      runAdminCommand(flags, async (admin) => {
        const found = await requireApp(admin.db, flags.app);
        const changes = changesFromFlags(flags);
        if (Object.keys(changes).length === 0) throw new CliError('InvalidUsage', 'Nothing to change: give at least one field to update (see --help).');
        const updated = await asCliError(() => updateApp(admin, cliActor, { ...changes, appId: found.id }), updateWording(flags));
        const shown = presentDeveloperApp(updated, { withSecret: false });
        return { json: { app: shown }, text: `Updated "${shown.name}" ${shown.id}: ${Object.keys(changes).join(', ')}.` };
      }),
    );

  adminCommand(app, 'delete', 'Delete an app: its installs, tokens, bot token and event history go with it.')
    .requiredOption('--app <id>', 'the app')
    .option('--yes', 'confirm: this cannot be undone')
    .action((flags: Flags<{ app: string; yes?: boolean }>) =>
      runAdminCommand(flags, async (admin) => {
        const found = await requireApp(admin.db, flags.app);
        if (!flags.yes) throw new CliError('InvalidUsage', `Deleting "${found.name}" ${found.id} cannot be undone; add --yes to confirm.`);
        // Nobody to tell at once: a running server's stream finds the deletion in the store.
        await deleteApp(admin, cliActor, { appId: found.id });
        return { json: { id: found.id, deleted: true }, text: `Deleted "${found.name}" ${found.id}.` };
      }),
    );
}

interface AppUpdateFlags {
  app: string;
  name?: string;
  description?: string;
  icon?: string;
  listenerUrl?: string;
  configurationUrl?: string;
  allowedOrigin: string[];
  /** False with --no-allowed-origins. */
  allowedOrigins: boolean;
  /** Undefined unless --flock-naming or --no-flock-naming is given. */
  flockNaming?: boolean;
  event: string[];
  defaultEvents?: boolean;
  integrationsFile?: string;
}

/** The developer methods' fields for the options given: "" clears a URL, as in the API. */
function changesFromFlags(flags: AppUpdateFlags): Record<string, unknown> {
  if (flags.allowedOrigin.length > 0 && !flags.allowedOrigins) throw new CliError('InvalidUsage', 'Give --allowed-origin or --no-allowed-origins, not both.');
  if (flags.event.length > 0 && flags.defaultEvents) throw new CliError('InvalidUsage', 'Give --event or --default-events, not both.');
  const changes: Record<string, unknown> = {
    name: flags.name,
    description: flags.description,
    icon: flags.icon,
    listenerUrl: flags.listenerUrl,
    configurationUrl: flags.configurationUrl,
    allowedOrigins: flags.allowedOrigins ? (flags.allowedOrigin.length > 0 ? flags.allowedOrigin : undefined) : [],
    integrations: flags.integrationsFile === undefined ? undefined : readJsonFile('--integrations-file', flags.integrationsFile),
    flockNaming: flags.flockNaming,
    eventSubscriptions: flags.defaultEvents ? null : flags.event.length > 0 ? flags.event : undefined,
  };
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}

const updateOptions = optionsNamed({
  name: '--name',
  description: '--description',
  icon: '--icon',
  listenerUrl: '--listener-url',
  configurationUrl: '--configuration-url',
});

/** A refused field named by its option: integrations by the file, origins by the repeated flag. */
function updateWording(flags: AppUpdateFlags) {
  return (parameter: string, description: string): string | undefined => {
    if (parameter.startsWith('integrations')) return `--integrations-file ${flags.integrationsFile}: ${description}`;
    return allowedOriginWording(flags.allowedOrigin, parameter, description) ?? eventWording(flags.event, parameter, description) ?? updateOptions(parameter, description);
  };
}

function describeApp(app: DeveloperAppModel): string {
  const { integrations } = app;
  const lines: Array<[string, string]> = [
    ['id', app.id],
    ['name', app.name],
    ['description', app.description || '-'],
    ['team', app.teamId],
    ['developer', app.developerId],
    ['icon', app.icon ?? '-'],
    ['listener URL', app.listenerUrl ?? '-'],
    ['configuration URL', app.configurationUrl ?? '-'],
    ['slash commands', integrations.slashCommands.map((command) => `/${command.name}`).join(' ') || '-'],
    ['preview domains', integrations.previewDomains.join(' ') || '-'],
    ['allowed origins', app.allowedOrigins.join(' ') || '-'],
    ['Flock naming', app.flockNaming ? 'on' : 'off'],
    ['events', app.eventSubscriptions?.join(' ') ?? 'the defaults'],
    ['bot', app.botUserId ?? 'not enabled'],
    ['disabled by team', app.disabledByTeam ? 'yes' : 'no'],
    ['delivery', app.deliveryPausedAt === null ? 'running' : `paused since ${isoTime(app.deliveryPausedAt)}`],
    ['created', isoTime(app.createdAt)],
    ['updated', isoTime(app.updatedAt)],
    ...(app.secret !== undefined ? [['secret', app.secret] as [string, string]] : []),
  ];
  return formatTable(['FIELD', 'VALUE'], lines, '');
}
