import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { dialects } from '../helpers/dialects.js';
import { startListener, type TestListener } from '../helpers/listener.js';
import { runCli, runCliJson, startCliServer, type CliServer } from './cli.js';
import { cliStore, teamWithDeveloper, type CliStore } from './stores.js';

/** The JSON lines `events tail --json` printed. */
const jsonLines = (stdout: string): any[] => stdout.trim().split('\n').map((line) => JSON.parse(line));

describe.each(dialects)('events list|tail|replay, with `aviary serve` delivering on the same store (%s)', (dialect) => {
  let store: CliStore;
  let on: string[];
  let developerId: string;
  let listener: TestListener;
  let server: CliServer;
  let app: { id: string };
  const eventIds: string[] = [];
  let startedAt: number;

  beforeAll(async () => {
    store = await cliStore(dialect);
    on = store.on;
    ({ developerId } = await teamWithDeveloper(on));
    // Refused for good (a 4xx), until a test says otherwise.
    listener = await startListener(() => ({ status: 400, body: '{"error":"not yet"}' }));
    app = await runCliJson(['app', 'create', '--name', 'Logged', '--developer', developerId, '--listener-url', listener.url, ...on]);
    startedAt = Date.now();
    const opened = store.open();
    try {
      for (const event of [{ name: 'app.uninstall', userId: developerId }, { name: 'chat.receiveMessage', userId: developerId, message: { uid: '01JD3ZK4Q8X7V2M9N5P6R3T1W0', from: developerId, to: 'u:deploybot234abcd', timestamp: startedAt, text: 'hi' } }] as const) {
        eventIds.push((await enqueueEvent(opened.db, { appId: app.id, userId: developerId, event }, Date.now()))!.eventId);
      }
    } finally {
      await opened.close();
    }
    server = await startCliServer(on);
  });
  afterAll(async () => {
    await server?.stop();
    await listener.close();
    await store.remove();
  });

  it('tail follows the events to their outcome; list filters them by status and name', async () => {
    const tail = await runCli(['events', 'tail', '--app', app.id, '--since', new Date(startedAt - 1000).toISOString(), '--interval', '100', '--exit-after', '2', '--json', ...on]);
    expect(tail.code).toBe(0);
    const lines = jsonLines(tail.stdout);
    expect(lines.at(-1)).toEqual({ type: 'stopped', settled: 2 });
    const settled = lines.filter((line) => line.type === 'event' && line.event.status === 'failed');
    expect(settled.map((line) => line.event.id).sort()).toEqual([...eventIds].sort());
    expect(settled[0].lastAttempt).toEqual(expect.objectContaining({ status: 400, outcome: 'failed', responseSnippet: '{"error":"not yet"}' }));

    const failed = await runCliJson(['events', 'list', '--app', app.id, '--status', 'failed', ...on]);
    expect(failed.events.map((event: { id: string }) => event.id)).toEqual([...eventIds].reverse());
    const named = await runCliJson(['events', 'list', '--app', app.id, '--name', 'chat.receiveMessage', ...on]);
    expect(named.events).toEqual([expect.objectContaining({ id: eventIds[1], name: 'chat.receiveMessage', status: 'failed', lastError: 'the listener answered HTTP 400' })]);
    expect((await runCliJson(['events', 'list', '--app', app.id, '--status', 'delivered', ...on])).events).toEqual([]);
    const table = await runCli(['events', 'list', '--app', app.id, ...on]);
    expect(table.stdout).toMatch(new RegExp(`${eventIds[0]}\\s+app\\.uninstall\\s+failed\\s+0\\s+\\S+\\s+the listener answered HTTP 400`));
  });

  it('replay --failed sends the failed events again, and the running server delivers them', async () => {
    listener.respond = () => ({ status: 200, body: '{}' });
    // From the replay on: the tail also prints attempts made since --since, and the failed ones before it
    // would count as settled before the replays are.
    const replayedAt = Date.now();
    expect(await runCliJson(['events', 'replay', '--app', app.id, '--failed', ...on])).toEqual({ replayedCount: 2 });
    const tail = await runCli(['events', 'tail', '--app', app.id, '--since', new Date(replayedAt).toISOString(), '--interval', '100', '--exit-after', '2', '--json', ...on]);
    const delivered = jsonLines(tail.stdout).filter((line) => line.type === 'event' && line.event.status === 'delivered');
    expect(delivered.map((line) => line.event.id).sort()).toEqual([...eventIds].sort());
    expect((await runCliJson(['events', 'list', '--app', app.id, '--status', 'failed', ...on])).events).toEqual([]);
  });

  it('tail shows a replay of an event settled before the tail started, as a new line with its new attempt', async () => {
    const since = Date.now();
    expect(await runCliJson(['events', 'replay', eventIds[1]!, '--app', app.id, ...on])).toEqual({ replayed: [eventIds[1]] });
    const tail = await runCli(['events', 'tail', '--app', app.id, '--since', new Date(since).toISOString(), '--interval', '100', '--exit-after', '1', '--json', ...on]);
    const lines = jsonLines(tail.stdout);
    expect(lines.at(-1)).toEqual({ type: 'stopped', settled: 1 });
    expect(lines.filter((line) => line.type === 'event')).toEqual([
      { type: 'event', event: expect.objectContaining({ id: eventIds[1], status: 'delivered' }), lastAttempt: expect.objectContaining({ status: 200, outcome: 'delivered', startedAt: expect.any(Number) }) },
    ]);
    expect(lines[0].lastAttempt.startedAt).toBeGreaterThanOrEqual(since);
  });

  it('replay of one event, and the refusals', async () => {
    expect(await runCliJson(['events', 'replay', eventIds[0]!, '--app', app.id, ...on])).toEqual({ replayed: [eventIds[0]] });
    const unknown = await runCli(['events', 'replay', 'ev_01JD3ZK4Q8X7V2M9N5P6R3T1W0', '--app', app.id, '--json', ...on]);
    expect(JSON.parse(unknown.stdout)).toEqual({ error: 'UnknownEvent', description: 'ev_01JD3ZK4Q8X7V2M9N5P6R3T1W0: the app has no event with this id.' });
    const both = await runCli(['events', 'replay', eventIds[0]!, '--failed', '--app', app.id, '--json', ...on]);
    expect(JSON.parse(both.stdout).error).toBe('InvalidUsage');
    const badSince = await runCli(['events', 'tail', '--app', app.id, '--since', 'yesterday', '--json', ...on]);
    expect(JSON.parse(badSince.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringMatching(/^--since must be/) });
    const badStatus = await runCli(['events', 'list', '--app', app.id, '--status', 'lost', '--json', ...on]);
    expect(JSON.parse(badStatus.stdout).error).toBe('InvalidUsage');
  });
});
