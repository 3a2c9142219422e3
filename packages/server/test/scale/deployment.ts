import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll } from 'vitest';
import { startLocalDeployment, type AviaryProcess, type LocalDeployment } from '../../../../deploy/local/deployment.js';
import { findNginx } from '../../../../deploy/local/nginx.js';
import { createChannel } from '../../src/core/commands/channels.js';
import { storeContext } from '../../src/core/context.js';
import { openStore, type Store } from '../../src/store/store.js';
import { http } from '../client/harness.js';
import { dialects, postgresTestUrl } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { startListener, type TestListener } from '../helpers/listener.js';
import { redisAvailable, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis.js';
import { loopbackHosts, rawCall } from '../helpers/server.js';
import { captureLog, splitLines } from '../helpers/logs.js';
import { adminQuery } from '../helpers/store.js';
import { startPrivatePostgres, startPrivateRedis, type PrivateService } from '../helpers/privateServices.js';

const nginx = findNginx();
// CI installs nginx (.ci/run); only a developer's machine may lack it.
if (!nginx && process.env.CI === 'true') throw new Error('nginx is required under CI=true (apt-get install -y nginx) but was not found; set NGINX to its path.');

/** Whether the deployment suites can run here: PostgreSQL and Redis (always under CI), and nginx. */
export const deploymentRunnable = dialects.includes('postgres') && redisAvailable && nginx !== undefined;
export const whyNotRunnable = !nginx
  ? 'nginx is not installed (apt-get install nginx, or set NGINX)'
  : !dialects.includes('postgres')
    ? 'PostgreSQL is unreachable'
    : 'Redis is unreachable';

/** The people who write to the bot, so that messages come from several tokens, as they do. */
const writerCount = 20;
/** The people who keep a stream open: opened one after another through nginx, two land on each process. */
const streamerCount = 6;
const password = 'the deployment test password';

export interface DeployedCast {
  deployment: LocalDeployment;
  /** deployment.restart(index), the new process's log joining `logs`. */
  restart(index: number): Promise<void>;
  /** A store on the deployment's database, for the test to look at what the processes wrote. */
  store: Store;
  /** What the processes log (JSON lines on their stdout), all of them in one, from their start. */
  logs: ReturnType<typeof captureLog>;
  /** The bot's app's listener: it answers 200 to every event. */
  listener: TestListener;
  botUserId: string;
  /** Tokens of people (through an app of theirs), each good for a few messages to the bot. */
  writerTokens: string[];
  /** Sessions (signed in through nginx) of people who are in `channelId`, to open streams with. */
  streamerSessions: string[];
  /** The session of the person who writes to `channelId`. */
  senderSession: string;
  channelId: string;
  /** The PostgreSQL and Redis of the deployment's own, with `ownServices` (to stop and restart them). */
  services?: { postgres: PrivateService; redis: PrivateService };
}

/**
 * Runs the suite against the deployment of docs/deploy.md: a database of its own (the processes take a
 * plain URL), a Redis key prefix of its own, `processes` × `aviary serve` and nginx, all stopped and
 * removed after the suite whether it passed or not. `cast()` gives them to the tests.
 */
export function withDeployment(processes: number, options: { ownServices?: boolean } = {}): () => DeployedCast {
  const database = `aviary_deploy_${randomBytes(6).toString('hex')}`;
  let databaseUrl = Object.assign(new URL(postgresTestUrl), { pathname: `/${database}` }).toString();
  let redisUrl = redisTestUrl;
  let services: DeployedCast['services'];
  // The processes and the test's own store seal and open app secrets with one key.
  const secretKey = randomBytes(32).toString('base64');
  let cast: DeployedCast | undefined;
  let deployment: LocalDeployment | undefined;
  let store: Store | undefined;
  let listener: TestListener | undefined;

  beforeAll(async () => {
    if (options.ownServices) {
      services = { postgres: await startPrivatePostgres(), redis: await startPrivateRedis() };
      [databaseUrl, redisUrl] = [services.postgres.url, services.redis.url];
    } else {
      await adminQuery(`create database ${database}`);
    }
    listener = await startListener();
    deployment = await startLocalDeployment({
      processes,
      databaseUrl,
      redisUrl,
      env: {
        // info: a process logs each delivery once it has recorded it (deliveriesRecorded waits on that).
        AVIARY_LOG_LEVEL: 'info',
        AVIARY_SECRET_KEY: secretKey,
        AVIARY_ALLOWED_INTERNAL_HOSTS: loopbackHosts.join(','),
        AVIARY_REDIS_KEY_PREFIX: uniqueRedisPrefix(),
        // The tests send bursts of messages to one bot; the limits are not what they look at.
        AVIARY_RATE_LIMIT_MESSAGE: '1000/s burst 1000',
        AVIARY_RATE_LIMIT_MESSAGE_PER_RECIPIENT: '1000/s burst 1000',
        // Few failed sign-ins per (email, client address), to see which address the processes count.
        AVIARY_RATE_LIMIT_SIGN_IN_FAILURES: '1/h burst 3',
        // A process holding more than its share of the streams sheds some each second, not each 30 s.
        AVIARY_STREAM_REBALANCE_MS: '1000',
      },
    });
    const logs = captureLog();
    // Each process writes only JSON log lines on stdout (the listening line among them).
    const logsOf = (server: AviaryProcess) => {
      const toLog = splitLines((line) => line.startsWith('{') && logs.destination.write(line));
      server.child.stdout!.on('data', (chunk: Buffer) => toLog(chunk.toString()));
    };
    deployment.processes.forEach(logsOf);
    const restart = async (index: number) => logsOf(await deployment!.restart(index));
    // A PostgreSQL store given its key keeps nothing in its data directory.
    store = openStore({ databaseUrl, dataDir: tmpdir(), secretKeys: [secretKey] });
    const f = factories(store.db);
    const team = await f.team();
    const developer = await f.person(team.id);
    const helper = await f.app(team.id, developer.id, { listenerUrl: listener.url });
    const { botUserId } = await f.bot(helper.id);
    const writer = await f.app(team.id, developer.id);
    const writerTokens: string[] = [];
    for (let i = 0; i < writerCount; i++) writerTokens.push((await f.install(writer.id, (await f.person(team.id)).id)).token);
    const sender = await f.person(team.id, { password });
    const streamers = await Promise.all(Array.from({ length: streamerCount }, () => f.person(team.id, { password })));
    const members = streamers.map((person) => person.id);
    const { channel } = await createChannel(storeContext(store.db), { user: sender, appId: null }, { name: 'everyone-streams', members });
    const signIn = async ({ email }: { email: string | null }): Promise<string> =>
      (await http(deployment!.url, 'POST', '/api/session', { json: { email, password } })).body.sessionToken;
    const streamerSessions = await Promise.all(streamers.map(signIn));
    cast = { deployment, restart, store, logs, listener, botUserId, writerTokens, streamerSessions, senderSession: await signIn(sender), channelId: channel.id, services };
  }, 120_000);
  afterAll(async () => {
    await deployment?.stop();
    await listener?.close();
    await store?.close();
    if (services) await Promise.all([services.postgres.remove(), services.redis.remove()]);
    else await adminQuery(`drop database if exists ${database} with (force)`);
  }, 60_000);
  return () => {
    if (!cast) throw new Error('the deployment did not start');
    return cast;
  };
}

/**
 * POST /api/session with a wrong password, from the loopback address `from` (the whole of 127.0.0.0/8 is
 * this machine's), through `baseUrl`; the answer's status.
 */
export function failedSignIn(baseUrl: string, from: string, email: string, headers: Record<string, string> = {}): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  const body = JSON.stringify({ email, password: 'not the password' });
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: hostname, port, localAddress: from, method: 'POST', path: '/api/session', headers: { 'content-type': 'application/json', ...headers } },
      (response) => response.resume().once('end', () => resolve(response.statusCode ?? 0)),
    );
    request.once('error', reject).end(body);
  });
}

/** A message to the channel of the streamers through `baseUrl`, as the web client sends it (chat.sendFromComposer with the session); whether the answer was 200. */
export async function sendToChannel(cast: DeployedCast, baseUrl: string, text: string): Promise<boolean> {
  return (await postToChannel(cast, baseUrl, text)) === 'ok';
}

/**
 * sendToChannel, with what went wrong when the answer was not 200. The person's chat.sendMessage carries
 * an Idempotency-Key, so nginx may resend it to the next process (deploy/nginx/aviary.conf).
 */
export async function postToChannel(cast: DeployedCast, baseUrl: string, text: string): Promise<'ok' | { failure: string }> {
  try {
    const answer = await rawCall(baseUrl, 'chat.sendMessage', {
      json: { to: cast.channelId, text },
      headers: { authorization: `Bearer ${cast.senderSession}`, 'idempotency-key': idempotencyKey() },
    });
    return answer.status === 200 ? 'ok' : { failure: `"${text}": HTTP ${answer.status}: ${JSON.stringify(answer.body)}` };
  } catch (error) {
    return { failure: `"${text}": ${String(error)} (${String((error as Error).cause ?? '')})` };
  }
}

/** A key for one send: a resend of it (by nginx) is the same send. */
const idempotencyKey = () => randomBytes(12).toString('base64url');

/** How many streams a process has open, by its own metrics. */
export async function openStreams(processUrl: string): Promise<number> {
  const metrics = await (await fetch(`${processUrl}/metrics`)).text();
  return Number(/^aviary_open_websockets (\d+)$/m.exec(metrics)?.[1]);
}

/**
 * The open streams of every process, read again after each change a process makes (its metrics) until
 * `settled` says they are what the test waits for; fails with the last counts after `timeoutMs`.
 */
export async function streamCountsWhen(processUrls: string[], settled: (counts: number[]) => boolean, timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await Promise.all(processUrls.map(openStreams));
    if (settled(counts)) return counts;
    if (Date.now() > deadline) throw new Error(`the streams never settled: ${counts.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** chat.sendMessage to the bot through `baseUrl` (with an Idempotency-Key); the message's uid when the answer was 200, else why not. */
export async function sendToBot(cast: DeployedCast, baseUrl: string, n: number): Promise<{ uid: string } | { failure: string }> {
  try {
    const token = cast.writerTokens[n % cast.writerTokens.length];
    const answer = await rawCall(baseUrl, 'chat.sendMessage', { form: { token, to: cast.botUserId, text: `message ${n}` }, headers: { 'idempotency-key': idempotencyKey() } });
    return answer.status === 200 ? { uid: answer.body.uid } : { failure: `HTTP ${answer.status}: ${JSON.stringify(answer.body)}` };
  } catch (error) {
    return { failure: String(error) };
  }
}

/** The uids of the messages whose chat.receiveMessage the listener received, once per event id. */
export function deliveredMessageUids(listener: TestListener): { uids: string[]; eventIds: Set<string> } {
  const events = listener.received.filter((request) => request.body?.name === 'chat.receiveMessage');
  return { uids: events.map((request) => request.body.message.uid), eventIds: new Set(events.map((request) => String(request.headers['x-service-event-id']))) };
}

/** Resolves once the listener has received the event of every message in `uids`; bounded by `timeoutMs`. */
export async function waitForEventsOf(listener: TestListener, uids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const missing = () => {
    const seen = new Set(deliveredMessageUids(listener).uids);
    return uids.filter((uid) => !seen.has(uid));
  };
  while (missing().length > 0) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`the events of ${missing().length} of ${uids.length} messages did not arrive in ${timeoutMs} ms`);
    // Wakes at the next request the listener receives.
    await listener.waitFor(listener.received.length + 1, left).catch(() => undefined);
  }
}

/**
 * Resolves once the processes have logged the delivery of each of `eventIds`: a process logs a delivery
 * once it has recorded it, so that none of them can claim that event again.
 */
export async function deliveriesRecorded(logs: ReturnType<typeof captureLog>, eventIds: ReadonlySet<string>): Promise<void> {
  await logs.waitUntil((lines) => {
    const recorded = new Set(lines.flatMap((line) => (line.msg === 'event delivered' && eventIds.has(line.eventId) ? [line.eventId] : [])));
    return recorded.size === eventIds.size || undefined;
  });
}
