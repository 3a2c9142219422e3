import type { Command } from 'commander';
import { checkIntegrations } from '../core/appFields.js';
import { createApp, enableBot, regenerateBotToken, updateApp } from '../core/commands/apps.js';
import type { InstallContext } from '../core/commands/installs.js';
import { whyNotInstallable } from '../core/policies/installability.js';
import type { ListenTunnel } from '../events/delivery/listenTunnels.js';
import { adminCommand, runAdminCommand, type AdminContext, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { allowedOriginWording, asCliError, eventWording, optionsNamed } from './coreRefusals.js';
import { CliError } from './errors.js';
import { readJsonFile } from './jsonFile.js';
import { requireApp, requirePerson, requireUser } from './lookups.js';
import { httpUrl, withRequiredOptions } from './options.js';
import { cliActor } from '../core/audit/record.js';

type Flags<T> = StoreFlags & OutputFlags & T;

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Registers `aviary app` and its first commands; returns it, for the commands other files add. */
export function registerAppCommands(program: Command): Command {
  const app = program.command('app').description('Manage apps: create them, enable their bot, install them for people.');

  withRequiredOptions(adminCommand(app, 'create', 'Create an app in its developer’s team; prints its id and secret.'), {
    '--name <name>': 'the app name',
    '--developer <userId>': 'the person who develops it; the app belongs to their team',
  })
    .option('--description <text>', 'what the app does')
    .option('--listener-url <url>', 'the http(s) URL its events are POSTed to')
    .option('--slash-command <name[:url]>', 'a slash command (repeatable): it sends an event to the listener, or with a URL opens that widget', collect, [])
    .option('--preview-domain <domain>', 'a domain whose links the app previews, e.g. example.com or *.example.com (repeatable)', collect, [])
    .option('--allowed-origin <origin>', 'an origin such as https://app.example its widget and browser tokens may also go to (repeatable)', collect, [])
    .option('--flock-naming', 'Flock-compatible naming: its events and widget URLs also carry Flock’s names (docs/flock-compatibility.md)')
    .option('--event <name>', 'an event the app receives (repeatable); without it, the defaults (docs/reference/event-subscriptions.md)', collect, [])
    .action((flags: Flags<AppCreateFlags>) =>
      runAdminCommand(flags, async (admin) => {
        const { db } = admin;
        const developer = await requirePerson(db, flags.developer);
        const created = await asCliError(
          () =>
            createApp(admin, cliActor, {
              developer,
              name: flags.name,
              description: flags.description,
              listenerUrl: flags.listenerUrl,
              integrations: integrationsFromFlags(flags),
              allowedOrigins: flags.allowedOrigin,
              flockNaming: flags.flockNaming === true,
              eventSubscriptions: flags.event.length > 0 ? flags.event : null,
            }),
          (parameter, description) => appOptionWording(flags, parameter, description),
        );
        return {
          json: { id: created.id, secret: created.secret },
          text: `Created app "${created.name}" ${created.id} in team ${developer.team_id}.\nsecret: ${created.secret}`,
        };
      }),
    );

  adminCommand(app, 'bot', 'Enable the app’s bot, or issue it a new token; either way an earlier bot token stops working.')
    .requiredOption('--app <id>', 'the app')
    .option('--enable', 'enable the bot (the first time, this creates its user "<App name> Bot"; an app called "… Bot" keeps its name)')
    .option('--regenerate', 'issue a new token to a bot that is already enabled')
    .action((flags: Flags<{ app: string; enable?: boolean; regenerate?: boolean }>) =>
      runAdminCommand(flags, async (admin) => {
        const { db } = admin;
        if (flags.enable === flags.regenerate) throw new CliError('InvalidUsage', 'Give exactly one of --enable and --regenerate.');
        const found = await requireApp(db, flags.app);
        if (flags.regenerate && found.bot_user_id === null) {
          throw new CliError('BotNotEnabled', `The bot of "${found.name}" is not enabled; enable it with --enable.`);
        }
        const { botUserId, botToken } = await (flags.enable ? enableBot : regenerateBotToken)(admin, cliActor, { appId: found.id });
        return { json: { botUserId, botToken }, text: `Bot of "${found.name}" is ${botUserId}.\nbot token: ${botToken}` };
      }),
    );

  adminCommand(app, 'integrations', 'Replace the app’s integrations with the JSON object in a file (slash commands, buttons, preview domains…).')
    .requiredOption('--app <id>', 'the app')
    .requiredOption('--file <path>', 'a JSON file holding the whole integrations object; {} removes them all')
    .action((flags: Flags<{ app: string; file: string }>) =>
      runAdminCommand(flags, async (admin) => {
        const found = await requireApp(admin.db, flags.app);
        const integrations = await asCliError(
          () => checkIntegrations(readJsonFile('--file', flags.file), ''),
          (_parameter, description) => `--file ${flags.file}: ${description}`,
        );
        await updateApp(admin, cliActor, { appId: found.id, integrations });
        return { json: { id: found.id, integrations }, text: `Set the integrations of "${found.name}" ${found.id}.` };
      }),
    );

  withRequiredOptions(adminCommand(app, 'install', 'Install the app for a person: its listener must accept app.install (HTTP 200) with their new token, which is printed.'), {
    '--app <id>': 'the app',
    '--user <userId>': 'the person installing it',
  })
    .option('--forward-to <url>', 'send app.install here instead, e.g. the URL `aviary listen` forwards to, for an app with no listener URL', httpUrl)
    .action((flags: Flags<{ app: string; user: string; forwardTo?: string }>) =>
      runAdminCommand(flags, async (admin) => {
        const found = await requireApp(admin.db, flags.app);
        const person = await requirePerson(admin.db, flags.user);
        if (person.team_id !== found.team_id) {
          throw new CliError('UnknownUser', `${person.id} is in team ${person.team_id}, not in the app’s team ${found.team_id}.`);
        }
        const notInstallable = whyNotInstallable(found, flags.forwardTo !== undefined);
        if (notInstallable !== undefined) {
          throw new CliError('InstallFailed', `"${found.name}" cannot be installed yet: ${notInstallable}. This command reaches no running server's \`aviary listen\`: give --forward-to with the URL it forwards to.`);
        }
        const { installApp } = await import('../core/commands/installs.js');
        const { token } = await withEventDelivery(admin, (ctx) => installApp(ctx, cliActor, { appId: found.id, userId: person.id }), { appId: found.id, forwardTo: flags.forwardTo });
        return { json: { token }, text: `Installed "${found.name}" for ${person.id}.\ntoken: ${token}` };
      }),
    );

  adminCommand(
    app,
    'uninstall',
    'Uninstall the app for a person; their token for it stops working at once. app.uninstall waits in the outbox until `aviary serve` runs on this store (this command delivers no events).',
  )
    .requiredOption('--app <id>', 'the app')
    .requiredOption('--user <userId>', 'the person')
    .action((flags: Flags<{ app: string; user: string }>) =>
      runAdminCommand(flags, async (admin) => {
        const found = await requireApp(admin.db, flags.app);
        const user = await requireUser(admin.db, flags.user);
        const { uninstallApp } = await import('../core/commands/installs.js');
        await withEventDelivery(admin, (ctx) => uninstallApp(ctx, cliActor, { appId: found.id, userId: user.id }));
        return { json: { appId: found.id, userId: user.id, uninstalled: true }, text: `Uninstalled "${found.name}" for ${user.id}.` };
      }),
    );
  return app;
}

interface AppCreateFlags {
  name: string;
  developer: string;
  description?: string;
  listenerUrl?: string;
  slashCommand: string[];
  previewDomain: string[];
  allowedOrigin: string[];
  flockNaming?: boolean;
  event: string[];
}

/** The integrations `app create` makes of its flags: a command sends an event, or with a URL opens that widget. */
function integrationsFromFlags(flags: AppCreateFlags): { slashCommands: unknown[]; previewDomains: string[] } {
  const slashCommands = flags.slashCommand.map((flag) => {
    const colon = flag.indexOf(':');
    const [name, url] = colon === -1 ? [flag, undefined] : [flag.slice(0, colon), flag.slice(colon + 1)];
    return { name, action: url === undefined ? { type: 'sendEvent' } : { type: 'openWidget', url } };
  });
  return { slashCommands, previewDomains: flags.previewDomain };
}

const appOptions = optionsNamed({ name: '--name', description: '--description', listenerUrl: '--listener-url' });

/** A refused field of `app create`, named by the flag (and for repeated flags the value) that gave it. */
function appOptionWording(flags: AppCreateFlags, parameter: string, description: string): string | undefined {
  const [, list, index] = /^integrations\.(slashCommands|previewDomains)\[(\d+)\]/.exec(parameter) ?? [];
  if (list !== undefined) {
    const flag = list === 'slashCommands' ? `--slash-command ${JSON.stringify(flags.slashCommand[Number(index)])}` : `--preview-domain ${JSON.stringify(flags.previewDomain[Number(index)])}`;
    return `${flag}: ${description.replace(/^integrations\./, '')}`;
  }
  return allowedOriginWording(flags.allowedOrigin, parameter, description) ?? eventWording(flags.event, parameter, description) ?? appOptions(parameter, description);
}

/**
 * Runs a core command that calls a listener or enqueues events on the command's store. No delivery worker
 * runs: enqueued events wait for a server. The core command's refusals become CLI errors.
 */
/**
 * Runs a command that may call the app's listener. With `forwardTo` the command is the app's listen
 * connection for its duration: this process cannot reach an `aviary listen` of a running server, so the
 * developer names the local URL it forwards to, and the call goes there as `aviary listen` would send it.
 */
async function withEventDelivery<T>(admin: AdminContext, run: (ctx: InstallContext) => Promise<T>, local?: { appId: string; forwardTo: string | undefined }): Promise<T> {
  // Loaded here: listener calls need an HTTP agent, which would slow every other command's start.
  const [{ createLog }, { eventsRuntimeFor }, { forwardToLocal }] = await Promise.all([import('../log.js'), import('../events/delivery/runtime.js'), import('./forwardLocal.js')]);
  // Its log (a refused listener address, say) on stderr: stdout carries the command's answer.
  const events = eventsRuntimeFor(admin.config, createLog(admin.config, process.stderr));
  const forwardTo = local?.forwardTo;
  if (local && forwardTo !== undefined) {
    const tunnel: ListenTunnel = {
      send: (frame) => {
        if (frame.type === 'event') void forwardToLocal(frame, forwardTo, admin.config.installTimeoutMs).then((reply) => events.tunnels.reply(tunnel, reply));
      },
    };
    events.tunnels.attach(local.appId, tunnel);
  }
  try {
    // Events the command enqueues wait in the outbox for a running server's worker: nothing to wake here.
    return await asCliError(() => run({ ...admin, events, afterCommit: () => undefined }));
  } finally {
    await events.close();
  }
}
