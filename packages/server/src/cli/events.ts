// `aviary events list|tail|replay --app ID`: an app's delivery log, read and replayed in the store.
import { deliveryStatuses, eventNames, type DeliveredEvent } from '@aviary/protocol';
import { Option, type Command } from 'commander';
import { listAppEvents, replayEvent, replayFailedEvents } from '../events/history/eventHistory.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { asCliError, optionsNamed } from './coreRefusals.js';
import { CliError } from './errors.js';
import { followEvents, parseSince } from './eventsTail.js';
import { requireApp } from './lookups.js';
import { positiveInteger } from './options.js';
import { formatTable, isoTime } from './table.js';

type Flags<T> = StoreFlags & OutputFlags & { app: string } & T;

/** The CLI runs no delivery worker: a running server's poll finds replayed events. */
const noWorker = { wake: () => undefined };

export function registerEventCommands(program: Command): void {
  const events = program.command('events').description('Read an app’s delivery log, follow it, and replay events.');

  adminCommand(events, 'list', 'List an app’s events, newest first, as the developer methods’ delivery log shows them.')
    .requiredOption('--app <id>', 'the app')
    .addOption(new Option('--status <status>', 'only events in this state').choices(deliveryStatuses))
    .addOption(new Option('--name <event>', 'only events of this name').choices(eventNames))
    .option('--limit <n>', 'at most this many (1 to 200)', positiveInteger(200), 50)
    .option('--before <eventId>', 'only events older than this one (the last id of the previous page)')
    .action((flags: Flags<{ status?: string; name?: string; limit: number; before?: string }>) =>
      runAdminCommand(flags, async ({ db }) => {
        const app = await requireApp(db, flags.app);
        const { status, name, limit, before } = flags;
        const listed = await asCliError(() => listAppEvents(db, app.id, { status, name, limit, before }), listOptions);
        return { json: { events: listed }, text: eventTable(listed, `No events of "${app.name}" ${app.id} match.`) };
      }),
    );

  adminCommand(
    events,
    'tail',
    'Follow an app’s events: one line per new event and per change of its state, until Ctrl-C. With --json, one JSON object per line.',
  )
    .requiredOption('--app <id>', 'the app')
    .option('--since <when>', 'start from this time (ISO 8601), this many minutes ago (such as 10m), or this event id (default: now)')
    .option('--interval <ms>', 'how often to look in the store (100 to 60000 ms)', positiveInteger(60_000), 1000)
    .option('--exit-after <n>', 'stop once this many events have been delivered or have failed (for scripts)', positiveInteger(1_000_000))
    .action((flags: Flags<{ since?: string; interval: number; exitAfter?: number }>) =>
      runAdminCommand(flags, async ({ db, now }) => {
        const app = await requireApp(db, flags.app);
        if (flags.interval < 100) throw new CliError('InvalidOption', '--interval must be at least 100 ms.');
        const since = flags.since === undefined ? now() : parseSince(flags.since, now());
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        if (!flags.json) process.stderr.write(`Following the events of "${app.name}" ${app.id}; Ctrl-C stops.\n`);
        try {
          const settled = await followEvents(db, app.id, {
            since,
            intervalMs: flags.interval,
            exitAfter: flags.exitAfter,
            signal: stop.signal,
            print: (line) => process.stdout.write(`${flags.json ? JSON.stringify({ type: 'event', ...line }) : tailLine(line.event, line.lastAttempt)}\n`),
          });
          return { json: { type: 'stopped', settled }, text: `Stopped: ${settled} event(s) delivered or failed while following.` };
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      }),
    );

  adminCommand(events, 'replay', 'Send an asynchronous event again as new, or every failed one; a running `aviary serve` delivers them.')
    .requiredOption('--app <id>', 'the app')
    .argument('[eventId]', 'the event to replay')
    .option('--failed', 'replay every failed asynchronous event of the app')
    .action((eventId: string | undefined, flags: Flags<{ failed?: boolean }>) =>
      runAdminCommand(flags, async ({ db, now }) => {
        if ((eventId === undefined) === !flags.failed) throw new CliError('InvalidUsage', 'Give exactly one of an event id and --failed.');
        const app = await requireApp(db, flags.app);
        const ctx = { db, now, events: noWorker };
        if (eventId !== undefined) {
          await asCliError(() => replayEvent(ctx, app.id, eventId)).catch((error: unknown) => {
            // Its one refusal: no such event of this app, or a synchronous one.
            throw error instanceof CliError && error.code === 'InvalidOption' ? new CliError('UnknownEvent', `${eventId}: ${error.message}.`) : error;
          });
          return { json: { replayed: [eventId] }, text: `Replayed ${eventId}: it is pending, and a running server sends it.` };
        }
        const count = await replayFailedEvents(ctx, app.id);
        return { json: { replayedCount: count }, text: `Replayed ${count} failed event(s) of "${app.name}": a running server sends them.` };
      }),
    );
}

const listOptions = optionsNamed({ status: '--status', name: '--name', before: '--before' });

function eventTable(listed: DeliveredEvent[], empty: string): string {
  return formatTable(
    ['ID', 'NAME', 'STATUS', 'RETRIES', 'CREATED', 'LAST ERROR'],
    listed.map((event) => [event.id, event.name, event.status, String(event.retryNum), isoTime(event.createdAt), event.lastError ?? '-']),
    empty,
  );
}

function tailLine(event: DeliveredEvent, attempt: { status: number | null; durationMs: number } | null): string {
  const answer = attempt === null ? '' : `  ${attempt.status === null ? 'no answer' : `HTTP ${attempt.status}`} in ${attempt.durationMs} ms`;
  const error = event.status === 'delivered' || event.lastError === null ? '' : `  ${event.lastError}`;
  return `${isoTime(event.updatedAt)}  ${event.id}  ${event.name}  ${event.status}${answer}${error}`;
}
