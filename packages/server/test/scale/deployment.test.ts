import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/listener.js';
import { rawCall } from '../helpers/server.js';
import { deliveredMessageUids, deploymentRunnable, failedSignIn, sendToBot, waitForEventsOf, whyNotRunnable, withDeployment } from './deployment.js';

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
    const { deployment, listener, store } = cast();
    const sent = await Promise.all(Array.from({ length: 30 }, (_, n) => sendToBot(cast(), deployment.url, n)));
    const uids = sent.map((result) => ('uid' in result ? result.uid : result.failure));
    expect(uids.every((uid) => /^[0-9A-Z]{26}$/.test(uid)), uids.join(', ')).toBe(true);

    await waitForEventsOf(listener, uids, 20_000);
    // Once the store says each was delivered (the processes record answers in batches, just after they
    // came), no process can claim it again: a second copy would have been sent before the first was recorded.
    await eventually(async () => {
      const undelivered = await store.db.selectFrom('events').select('id').where('status', '!=', 'delivered').execute();
      return undelivered.length === 0;
    }, 10_000);
    const delivered = deliveredMessageUids(listener);
    expect([...delivered.uids].sort()).toEqual([...uids].sort());
    expect(delivered.eventIds.size).toBe(30);
  });

  it('loses no acknowledged message or event when a process is killed with -9 under load', { timeout: afterLeaseMs + 30_000 }, async () => {
    const { deployment, listener, store } = cast();
    const total = 120;
    const concurrency = 6;
    const killAfter = 40;
    const victim = deployment.processes[1];
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let next = 1_000;
    let killed: Promise<void> | undefined;
    // `concurrency` senders through nginx; the victim is killed once `killAfter` messages are acknowledged.
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < 1_000 + total) {
          const result = await sendToBot(cast(), deployment.url, next++);
          if ('uid' in result) acknowledged.push(result.uid);
          else failures.push(result.failure);
          if (acknowledged.length >= killAfter) killed ??= victim.kill('SIGKILL');
        }
      }),
    );
    await killed;
    expect(victim.child.signalCode).toBe('SIGKILL');
    // Only requests in flight at the victim when it died may have failed; nginx sends the rest elsewhere.
    expect(failures.length, failures.join('\n')).toBeLessThanOrEqual(concurrency);
    expect(acknowledged.length + failures.length).toBe(total);

    const stored = await store.db.selectFrom('messages').select('uid').where('uid', 'in', acknowledged).execute();
    expect(stored).toHaveLength(acknowledged.length);
    await waitForEventsOf(listener, acknowledged, afterLeaseMs);
    // An event the victim had sent but not yet recorded goes out again (at least once), under its own id.
    const delivered = deliveredMessageUids(listener);
    const events = await store.db.selectFrom('events').select('id').where('name', '=', 'chat.receiveMessage').execute();
    expect([...delivered.eventIds].every((id) => events.some((event) => event.id === id))).toBe(true);

    for (const url of [deployment.url, deployment.url, deployment.url]) {
      expect((await rawCall(url, 'users.getInfo', { query: { token: cast().writerTokens[0] } })).status).toBe(200);
    }
  });
});
