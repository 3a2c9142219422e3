import { describe, expect, it } from 'vitest';
import { streamsToShed } from '../../src/api/stream/rebalance.js';
import type { LogLine } from '../helpers/logs.js';
import { rawCall } from '../helpers/server.js';
import { deliveredMessageUids, deliveriesRecorded, deploymentRunnable, failedSignIn, openStreams, postToChannel, sendToBot, sendToChannel, streamCountsWhen, waitForEventsOf, whyNotRunnable, withDeployment } from './deployment.js';
import { expectEachOnceInOrder, followStream, type FollowedStream } from './streams.js';

if (!deploymentRunnable) console.warn(`Skipping the multi-process deployment suite: ${whyNotRunnable}.`);

/**
 * Claims of a process killed with -9 are taken over when their lease (60 s) has passed: the wait for
 * the last events of the kill test is bounded by that and a margin.
 */
const afterLeaseMs = 90_000;

describe.runIf(deploymentRunnable)('3 aviary serve processes on one PostgreSQL and Redis, behind nginx', () => {
  const cast = withDeployment(3);

  it('answers through nginx and through each process directly', async () => {
    const { deployment, writerTokens } = cast();
    for (const url of [deployment.url, ...deployment.processes.map((process) => process.url)]) {
      const answer = await rawCall(url, 'users.getInfo', { query: { token: writerTokens[0] } });
      expect(answer.status, url).toBe(200);
    }
  });

  it("counts a client's sign-ins by the address nginx forwards, in one bucket for all processes", async () => {
    const { deployment } = cast();
    const email = 'someone@example.test';
    // Three failures from one address, each through nginx to whichever process is next: the bucket of
    // (email, 127.0.0.2) is empty, on every process. A header the client writes itself changes nothing.
    const fromGuesser: number[] = [];
    for (let i = 0; i < 4; i++) fromGuesser.push(await failedSignIn(deployment.url, '127.0.0.2', email, { 'x-forwarded-for': `10.0.0.${i}` }));
    expect(fromGuesser).toEqual([401, 401, 401, 429]);
    // Another address still may try: the processes did not take nginx's own address for the client's.
    expect(await failedSignIn(deployment.url, '127.0.0.3', email)).toBe(401);
  });

  it('delivers each app event once, whichever process took the message', async () => {
    const { deployment, listener, logs } = cast();
    const sent = await Promise.all(Array.from({ length: 30 }, (_, n) => sendToBot(cast(), deployment.url, n)));
    const uids = sent.map((result) => ('uid' in result ? result.uid : result.failure));
    expect(uids.every((uid) => /^[0-9A-Z]{26}$/.test(uid)), uids.join(', ')).toBe(true);

    await waitForEventsOf(listener, uids, 20_000);
    // Once each delivery is recorded (the processes record answers in batches, just after they came, and
    // log each once recorded), no process can claim it again: a second copy would have been sent before
    // the first was recorded.
    await deliveriesRecorded(logs, deliveredMessageUids(listener).eventIds);
    const delivered = deliveredMessageUids(listener);
    expect([...delivered.uids].sort()).toEqual([...uids].sort());
    expect(delivered.eventIds.size).toBe(30);
  });

  it('brings a message sent through process 1 to streams opened through nginx, on every process', async () => {
    const { deployment, streamerSessions } = cast();
    const streams: FollowedStream[] = [];
    try {
      // One after another, so that nginx's round robin gives each process two.
      for (const session of streamerSessions) streams.push(await followStream(deployment.url, session));
      for (const server of deployment.processes) expect(await openStreams(server.url), server.url).toBe(2);
      expect(await sendToChannel(cast(), deployment.processes[0].url, 'sent through process 1')).toBe(true);
      await Promise.all(streams.map((stream) => stream.waitForText('sent through process 1')));
    } finally {
      for (const stream of streams) await stream.close();
    }
  });

  it('answers a load through nginx without one 502: the processes keep idle connections longer than nginx', { timeout: 120_000 }, async () => {
    const { deployment } = cast();
    for (const server of deployment.processes) {
      const answer = await fetch(`${server.url}/healthz`);
      await answer.body?.cancel();
      // nginx (deploy/nginx/aviary.conf) closes its idle upstream connections after 60 s.
      expect(answer.headers.get('keep-alive')).toBe('timeout=75');
    }
    // Waves of senders of changing width: nginx's kept connections go idle and are taken again.
    const statuses: number[] = [];
    let n = 10_000;
    for (const width of [12, 2, 8, 1, 12, 4]) {
      await Promise.all(
        Array.from({ length: width }, async () => {
          for (let i = 0; i < 10; i++) {
            const result = await sendToBot(cast(), deployment.url, n++);
            statuses.push('uid' in result ? 200 : Number(/^HTTP (\d+)/.exec(result.failure)?.[1] ?? 0));
          }
        }),
      );
    }
    expect(statuses.length).toBe(10 * 39);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  it('loses no acknowledged message, event or stream frame when a process is killed with -9 under load', { timeout: afterLeaseMs + 60_000 }, async () => {
    const { deployment, listener, store, streamerSessions } = cast();
    const total = 240;
    const concurrency = 6;
    const killAfter = 80;
    const victim = deployment.processes[1];
    const streams: FollowedStream[] = [];
    try {
      for (const session of streamerSessions) streams.push(await followStream(deployment.url, session));
      const onVictim = await openStreams(victim.url);
      expect(onVictim).toBe(2);

      // `concurrency` senders through nginx, every other message to the bot (an event) or to the channel
      // of the streams (a frame); the victim is killed once `killAfter` messages are acknowledged.
      const acknowledged = { toBot: [] as string[], toChannel: [] as string[] };
      const failures: string[] = [];
      let next = 0;
      let killed: Promise<void> | undefined;
      const sendOne = async (n: number) => {
        if (n % 2 === 0) {
          const result = await sendToBot(cast(), deployment.url, n);
          if ('uid' in result) acknowledged.toBot.push(result.uid);
          else failures.push(result.failure);
        } else if (await sendToChannel(cast(), deployment.url, `load ${n}`)) acknowledged.toChannel.push(`load ${n}`);
        else failures.push(`load ${n} was not acknowledged`);
      };
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < total) {
            await sendOne(next++);
            if (acknowledged.toBot.length + acknowledged.toChannel.length >= killAfter) killed ??= victim.kill('SIGKILL');
          }
        }),
      );
      await killed;
      expect(victim.child.signalCode).toBe('SIGKILL');
      // Only requests in flight at the victim when it died may have failed; nginx sends the rest elsewhere.
      expect(failures.length, failures.join('\n')).toBeLessThanOrEqual(concurrency);

      // Every acknowledged message is stored, and its event reaches the app (those the victim had leased,
      // once their lease has passed).
      const stored = await store.db.selectFrom('messages').select('uid').where('uid', 'in', acknowledged.toBot).execute();
      expect(stored).toHaveLength(acknowledged.toBot.length);
      await waitForEventsOf(listener, acknowledged.toBot, afterLeaseMs);
      // An event the victim had sent but not yet recorded goes out again (at least once), under its own id.
      const events = await store.db.selectFrom('events').select('id').where('name', '=', 'chat.receiveMessage').execute();
      expect([...deliveredMessageUids(listener).eventIds].every((id) => events.some((event) => event.id === id))).toBe(true);

      // The victim's two streams reconnected through nginx to the others and resumed after their cursor:
      // every stream has every acknowledged message once, in the order of the team's stream.
      expect(await sendToChannel(cast(), deployment.url, 'after the kill')).toBe(true);
      await Promise.all(streams.map((stream) => stream.waitForText('after the kill', 30_000)));
      // At least those (a process holding more than its share may also shed some of its streams meanwhile).
      expect(streams.reduce((sum, stream) => sum + stream.reconnects(), 0)).toBeGreaterThanOrEqual(onVictim);
      expectEachOnceInOrder(streams, acknowledged.toChannel);
    } finally {
      for (const stream of streams) await stream.close();
    }
  });

  // A POST nginx writes on a kept connection just as the draining process closes it meets a reset; each
  // send carries an Idempotency-Key, so nginx sends it to the next process (deploy/nginx/aviary.conf).
  it('gives clients no error while every process is restarted in turn under load (SIGTERM, then the same port)', { timeout: 240_000 }, async () => {
    const { deployment, listener, store, streamerSessions } = cast();
    const concurrency = 6;
    const streams: FollowedStream[] = [];
    try {
      // The process killed with -9 above is still down: its first restart brings it back.
      for (const session of streamerSessions) streams.push(await followStream(deployment.url, session));
      const acknowledged = { toBot: [] as string[], toChannel: [] as string[] };
      const failures: string[] = [];
      let n = 20_000;
      let restarting = true;
      const sendOne = async (k: number) => {
        if (k % 2 === 0) {
          const result = await sendToBot(cast(), deployment.url, k);
          if ('uid' in result) acknowledged.toBot.push(result.uid);
          else failures.push(result.failure);
        } else {
          const result = await postToChannel(cast(), deployment.url, `rolling ${k}`);
          if (result === 'ok') acknowledged.toChannel.push(`rolling ${k}`);
          else failures.push(result.failure);
        }
      };
      const load = Promise.all(Array.from({ length: concurrency }, async () => {
        while (restarting) await sendOne(n++);
      }));
      const pids: Array<number | undefined> = [];
      try {
        for (let index = 0; index < deployment.processes.length; index++) {
          await cast().restart(index);
          pids.push(deployment.processes[index].child.pid);
        }
      } finally {
        restarting = false;
        await load;
      }
      expect(new Set(pids).size).toBe(3);
      expect(failures, `${failures.join('\n')}\nnginx: ${deployment.nginx.errors()}`).toEqual([]);
      expect(acknowledged.toBot.length + acknowledged.toChannel.length).toBeGreaterThan(30);

      const stored = await store.db.selectFrom('messages').select('uid').where('uid', 'in', acknowledged.toBot).execute();
      expect(stored).toHaveLength(acknowledged.toBot.length);
      await waitForEventsOf(listener, acknowledged.toBot, 60_000);
      // Every stream reconnected as its process went, and has every acknowledged message once, in order.
      expect(await sendToChannel(cast(), deployment.url, 'after the rolling restart')).toBe(true);
      await Promise.all(streams.map((stream) => stream.waitForText('after the rolling restart', 30_000)));
      expectEachOnceInOrder(streams, acknowledged.toChannel);
    } catch (error) {
      throw new Error(`${String(error)}\nnginx: ${deployment.nginx.errors()}`, { cause: error });
    } finally {
      for (const stream of streams) await stream.close();
    }
  });

  it('spreads the streams again over the processes after one was restarted', { timeout: 120_000 }, async () => {
    const { deployment, logs, streamerSessions } = cast();
    const streams: FollowedStream[] = [];
    try {
      // Three streams a person, opened one after another: nginx gives each process about six.
      for (const session of [...streamerSessions, ...streamerSessions, ...streamerSessions]) streams.push(await followStream(deployment.url, session));
      const urls = () => deployment.processes.map((server) => server.url);
      // The restarted process comes back with none: its six went to the other two (nine each).
      const mark = logs.lines.length;
      await cast().restart(2);
      const restartedPid = deployment.processes[2].child.pid;
      const shedding = (line: LogLine) => line.processes === 3 && line.msg === 'shedding streams to even the load';
      // The two with nine shed some, round after round, until all eighteen are open again and no process
      // holds more than its share. A stream shed in flight is counted nowhere: the counts are read again
      // until they add up (the processes act once a second, on what each of them last said).
      const even = (counts: number[]) => counts.reduce((sum, count) => sum + count, 0) === 18 && counts.every((own) => streamsToShed(own, counts) === 0);
      const after = await streamCountsWhen(urls(), even, 60_000);
      expect(after[2]).toBeGreaterThanOrEqual(3);
      expect(logs.lines.slice(mark).filter(shedding).map((line) => line.pid)).not.toContain(restartedPid);
      // Every stream that was told to reconnect did, and goes on: a message reaches all eighteen.
      expect(await sendToChannel(cast(), deployment.url, 'after the spreading')).toBe(true);
      await Promise.all(streams.map((stream) => stream.waitForText('after the spreading', 30_000)));
      await streamCountsWhen(urls(), (counts) => counts.reduce((sum, count) => sum + count, 0) === 18, 30_000);
    } finally {
      for (const stream of streams) await stream.close();
    }
  });
});
