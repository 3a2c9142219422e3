// `aviary trigger <event> --app ID`: a realistic fixture of one of the ten events, signed as the server
// signs a delivery, POSTed to the app's listener (or --forward-to), and the answer printed.
import { eventNames, exampleEventFrom, type EventName } from '@aviary/protocol';
import { Argument, type Command } from 'commander';
import { newEventId } from '../events/ids.js';
import { adminCommand, configFrom, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { CliError } from './errors.js';
import { requireApp, requirePerson } from './lookups.js';
import { allowInternalHostsHelp, parseHostList } from './options.js';

interface TriggerFlags extends StoreFlags, OutputFlags {
  app: string;
  user?: string;
  forwardTo?: string;
  allowInternalHosts?: string[];
}

/** How much of the answer is printed: event answers are small, a page of HTML is not. */
const keptAnswerBytes = 64 * 1024;

export function registerTriggerCommand(program: Command): void {
  adminCommand(program, 'trigger', 'Send a realistic, signed fixture of an event to an app’s listener (or --forward-to) and print the answer. Nothing is recorded.')
    .addArgument(new Argument('<event>', 'the event to send').choices(eventNames))
    .requiredOption('--app <id>', 'the app: its id and secret sign the event')
    .option('--user <userId>', 'the person the event is from (default: the app’s developer)')
    .option('--forward-to <url>', 'POST here instead of the app’s listener URL, e.g. http://localhost:3000/events')
    .option('--allow-internal-hosts <list>', allowInternalHostsHelp, parseHostList)
    .action((name: EventName, flags: TriggerFlags) =>
      runAdminCommand(flags, async ({ db, now }) => {
        const app = await requireApp(db, flags.app);
        const person = await requirePerson(db, flags.user ?? app.developer_id);
        const url = targetUrl(flags.forwardTo ?? app.listener_url);
        const event = exampleEventFrom(name, { id: person.id, firstName: person.first_name, lastName: person.last_name });
        const body = JSON.stringify(event);
        const eventId = newEventId(now());
        // Loaded here: the HTTP agent would slow every other command's start.
        const [{ eventsRuntimeFor }, { listenerHeaders }, { callListener }, { createLog }] = await Promise.all([
          import('../events/delivery/runtime.js'),
          import('../events/delivery/attempts.js'),
          import('../events/delivery/listenerCall.js'),
          import('../log.js'),
        ]);
        // Listener calls go through the server's guarded agent: an internal address needs allowing, as for serve.
        const config = configFrom(flags, { allowedInternalHosts: flags.allowInternalHosts });
        const runtime = eventsRuntimeFor(config, createLog(config, process.stderr));
        try {
          const headers = listenerHeaders({ appId: app.id, appSecret: app.secret, userId: person.id, eventId, retryNum: 0 }, body, now());
          const result = await callListener(runtime.agent, { url, body, headers, answerTimeoutMs: runtime.settings.answerTimeoutMs, keepBytes: keptAnswerBytes });
          if (result.kind === 'unanswered') {
            const hint = result.internalAddress ? ' Allow it with --allow-internal-hosts (or AVIARY_ALLOWED_INTERNAL_HOSTS) if it is yours.' : '';
            throw new CliError('ListenerUnreachable', `${name} to ${url}: ${result.error}.${hint}`);
          }
          const answer = result.body.toString('utf8');
          return {
            json: { eventId, event, url, status: result.status, durationMs: result.durationMs, answer },
            text: `${name} ${eventId} → ${url}\nHTTP ${result.status} in ${result.durationMs} ms\n${answer}`,
          };
        } finally {
          await runtime.close();
        }
      }),
    );
}

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
