// `aviary trigger <event> --app ID`: a realistic fixture of one of the ten events (the app's own command or
// button, the fields given, or a whole payload), signed as the server signs a delivery, sent where a real
// one goes (the listener, --forward-to, or the widget URL the integration opens), and the answer printed.
import { eventNames, type EventName, type TestEventOverrides } from '@aviary/protocol';
import { Argument, Option, type Command } from 'commander';
import { adminCommand, configFrom, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { asCliError } from './coreRefusals.js';
import { CliError } from './errors.js';
import { readJsonFile } from './jsonFile.js';
import { requireApp, requirePerson } from './lookups.js';
import { allowInternalHostsHelp, parseHostList } from './options.js';

interface TriggerFlags extends StoreFlags, OutputFlags, Omit<TestEventOverrides, 'payload'> {
  app: string;
  user?: string;
  forwardTo?: string;
  allowInternalHosts?: string[];
  payload?: string;
}

export function registerTriggerCommand(program: Command): void {
  adminCommand(program, 'trigger', 'Send a realistic, signed test event where a real one goes (the app’s listener, --forward-to, or its widget URL) and print the answer. Nothing is recorded.')
    .addArgument(new Argument('<event>', 'the event to send').choices(eventNames))
    .requiredOption('--app <id>', 'the app: its id and secret sign the event')
    .option('--user <userId>', 'the person the event is from (default: the app’s developer)')
    .option('--forward-to <url>', 'POST here instead of the app’s listener URL, e.g. http://localhost:3000/events')
    .option('--allow-internal-hosts <list>', allowInternalHostsHelp, parseHostList)
    .option('--payload <file>', 'a JSON file holding the whole event (its name and userId are the test’s own)')
    .option('--command <name>', 'client.slashCommand: the command (default: the app’s first)')
    .option('--text <text>', 'client.slashCommand: the text after the command')
    .addOption(new Option('--button <kind>', 'client.pressButton: which button (default: the app’s first integration button)').choices(['appLauncherButton', 'chatTabButton', 'attachmentPickerButton', 'attachmentButton']))
    .option('--button-id <id>', 'client.pressButton: an attachment button’s id')
    .option('--url <url>', 'chat.generateUrlPreview: the link; client.openAttachmentWidget: the widget’s URL')
    .option('--chat <id>', 'the chat the event is in (g:… or u:…)')
    .action((name: EventName, flags: TriggerFlags) =>
      runAdminCommand(flags, async ({ db, now }) => {
        const app = await requireApp(db, flags.app);
        const person = await requirePerson(db, flags.user ?? app.developer_id);
        const forwardTo = flags.forwardTo === undefined ? undefined : targetUrl(flags.forwardTo);
        const payload = flags.payload === undefined ? undefined : payloadFrom(flags.payload);
        // Loaded here: the HTTP agent would slow every other command's start.
        const [{ eventsRuntimeFor }, { sendPlannedTestEvent }, { createLog }] = await Promise.all([
          import('../events/delivery/runtime.js'),
          import('../core/testEvents/send.js'),
          import('../log.js'),
        ]);
        // Calls go through the server's guarded agent: an internal address needs allowing, as for serve.
        const config = configFrom(flags, { allowedInternalHosts: flags.allowInternalHosts });
        const events = eventsRuntimeFor(config, createLog(config, process.stderr));
        try {
          const overrides: TestEventOverrides = { payload, command: flags.command, text: flags.text, button: flags.button, buttonId: flags.buttonId, url: flags.url, chat: flags.chat };
          const sent = await asCliError(
            () => sendPlannedTestEvent({ db, now, events }, app, person, name, withoutUndefined(overrides), forwardTo),
            (parameter, description) => {
              const flag = `--${parameter === 'buttonId' ? 'button-id' : parameter}`;
              return description.startsWith(`${parameter} `) ? `${flag}${description.slice(parameter.length)}` : `${flag}: ${description}`;
            },
          );
          if (sent.reason === 'no_listener') throw new CliError('InvalidUsage', 'The app has no listener URL: give --forward-to <url>, or set one with `aviary app update --listener-url`.');
          if (sent.reason !== null) {
            const hint = /internal/i.test(sent.detail ?? '') ? ' Allow it with --allow-internal-hosts (or AVIARY_ALLOWED_INTERNAL_HOSTS) if it is yours.' : '';
            throw new CliError('ListenerUnreachable', `${name} to ${sent.url}: ${sent.detail}.${hint}`);
          }
          return {
            json: { eventId: sent.eventId, event: sent.event, via: sent.via, url: sent.url, status: sent.status, durationMs: sent.durationMs, answer: sent.answer },
            text: `${name} ${sent.eventId} → ${sent.via === 'widget' ? `widget ${sent.url}` : sent.url}\nHTTP ${sent.status} in ${sent.durationMs} ms\n${sent.answer}`,
          };
        } finally {
          await events.close();
        }
      }),
    );
}

function payloadFrom(path: string): Record<string, unknown> {
  const value = readJsonFile('--payload', path);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CliError('InvalidOption', `--payload ${path} must hold a JSON object: the event.`);
  return value as Record<string, unknown>;
}

const withoutUndefined = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

function targetUrl(url: string | null | undefined): string {
  if (url === null || url === undefined || url === '') throw new CliError('InvalidUsage', 'The app has no listener URL: give --forward-to <url>, or set one with `aviary app update --listener-url`.');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError('InvalidOption', `--forward-to must be an http or https URL; got ${JSON.stringify(url)}.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliError('InvalidOption', `--forward-to must be an http or https URL; got ${JSON.stringify(url)}.`);
  return parsed.toString();
}
