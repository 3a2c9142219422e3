import { describe, expect, it } from 'vitest';
import { whyNoPrivateServices } from '../helpers/privateServices.js';
import { rawCall } from '../helpers/server.js';
import { deploymentRunnable, sendToChannel, waitForEventsOf, whyNotRunnable, withDeployment, type DeployedCast } from './deployment.js';
import { expectEachOnceInOrder, followStream, type FollowedStream } from './streams.js';

const runnable = deploymentRunnable && !whyNoPrivateServices;
if (!runnable) console.warn(`Skipping the store fault suite: ${whyNoPrivateServices ?? whyNotRunnable}.`);

/** How long PostgreSQL stays down: the fault of the issue. */
const postgresDownMs = 10_000;

/** What a load of senders saw: acknowledged messages, refusals the client may retry (503 + Retry-After), and anything else. */
interface LoadOutcome {
  toBot: string[];
  toChannel: string[];
  retryLater: number;
  errors: string[];
}

/**
 * `concurrency` senders through nginx until stop(), every other message to the bot (an event) or to the
 * channel of the streams (a frame). A message refused with 503 and Retry-After counts as refused (a client
 * retries it later; these senders pause a little and send the next), never as acknowledged.
 */
function startLoad(cast: DeployedCast, concurrency = 4) {
  const outcome: LoadOutcome = { toBot: [], toChannel: [], retryLater: 0, errors: [] };
  const acknowledged = () => outcome.toBot.length + outcome.toChannel.length;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let running = true;
  let n = 0;
  const sendOne = async (k: number) => {
    const toBot = k % 2 === 0;
    const text = `fault ${k}`;
    const token = cast.writerTokens[k % cast.writerTokens.length];
    const answer = await rawCall(cast.deployment.url, 'chat.sendMessage', {
      json: toBot ? { to: cast.botUserId, text } : { to: cast.channelId, text },
      headers: { authorization: `Bearer ${toBot ? token : cast.senderSession}`, 'idempotency-key': `${Date.now()}-${k}` },
    }).catch((error: Error) => ({ status: 0, headers: new Headers(), body: String(error) }));
    if (answer.status === 200) {
      (toBot ? outcome.toBot : outcome.toChannel).push(toBot ? answer.body.uid : text);
      for (const waiter of waiters.filter((waiter) => acknowledged() >= waiter.count)) waiter.resolve();
    } else if (answer.status === 503 && Number(answer.headers.get('retry-after')) > 0) {
      outcome.retryLater++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } else {
      outcome.errors.push(`${text}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
    }
  };
  const senders = Promise.all(Array.from({ length: concurrency }, async () => {
    while (running) await sendOne(n++);
  }));
  return {
    /** Resolves once `more` messages more than now have been acknowledged; bounded by `timeoutMs`. */
    acknowledgedMore(more: number, timeoutMs = 60_000): Promise<void> {
      const count = acknowledged() + more;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${more} more messages were not acknowledged within ${timeoutMs} ms: ${outcome.errors.slice(-3).join('; ')}`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    async stop(): Promise<LoadOutcome> {
      running = false;
      await senders;
      return outcome;
    },
  };
}

/** Every acknowledged message is stored and reaches the app or every stream, once and in order. */
async function expectNothingLost(cast: DeployedCast, outcome: LoadOutcome, streams: FollowedStream[], marker: string): Promise<void> {
  const processes = cast.deployment.processes.map((server) => `exit ${server.child.exitCode} ${server.child.signalCode}: ${server.output().slice(-3000)}`);
  expect(outcome.errors, `${outcome.errors.slice(0, 5).join('\n')}\n${processes.join('\n\n')}`).toEqual([]);
  const stored = await cast.store.db.selectFrom('messages').select('uid').where('uid', 'in', outcome.toBot).execute();
  expect(stored).toHaveLength(outcome.toBot.length);
  await waitForEventsOf(cast.listener, outcome.toBot, 90_000);
  expect(await sendToChannel(cast, cast.deployment.url, marker)).toBe(true);
  await Promise.all(streams.map((stream) => stream.waitForText(marker, 60_000)));
  expectEachOnceInOrder(streams, outcome.toChannel);
  console.info(`${marker}: ${outcome.toBot.length + outcome.toChannel.length} acknowledged, ${outcome.retryLater} refused with 503 + Retry-After, 0 lost, 0 duplicated, 0 gaps`);
}

describe.runIf(runnable)('3 aviary serve processes behind nginx, on a PostgreSQL and a Redis of their own that fail', () => {
  const cast = withDeployment(3, { ownServices: true });

  const withStreams = async (body: (streams: FollowedStream[]) => Promise<void>) => {
    const streams: FollowedStream[] = [];
    try {
      for (const session of cast().streamerSessions) streams.push(await followStream(cast().deployment.url, session));
      await body(streams);
    } finally {
      for (const stream of streams) await stream.close();
    }
  };

  it('loses nothing and gives clients only 503 with Retry-After while PostgreSQL is stopped for 10 s under load', { timeout: 240_000 }, async () => {
    const { postgres } = cast().services!;
    let outcome!: LoadOutcome;
    await withStreams(async (streams) => {
      const load = startLoad(cast());
      try {
        await load.acknowledgedMore(20);
        await postgres.stop();
        await new Promise((resolve) => setTimeout(resolve, postgresDownMs));
        await postgres.start();
        // Sends go through again once the processes' pools reconnect.
        await load.acknowledgedMore(20);
      } finally {
        outcome = await load.stop();
      }
      await expectNothingLost(cast(), outcome, streams, 'after PostgreSQL came back');
    });
  });

  it('loses nothing and gives clients no error while Redis restarts under load (its keys are gone)', { timeout: 240_000 }, async () => {
    const { redis } = cast().services!;
    let outcome!: LoadOutcome;
    await withStreams(async (streams) => {
      const load = startLoad(cast());
      try {
        await load.acknowledgedMore(20);
        await redis.stop();
        await redis.start();
        await load.acknowledgedMore(20);
      } finally {
        outcome = await load.stop();
      }
      await expectNothingLost(cast(), outcome, streams, 'after Redis restarted');
      expect(outcome.retryLater).toBe(0);
    });
  });
});
