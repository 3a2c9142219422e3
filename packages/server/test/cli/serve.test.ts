import { readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { DemoCredentials } from '../../src/core/commands/seedDemo.js';
import { openStore } from '../../src/store/store.js';
import { getInfo, runCli, runCliProcess, serveScratch } from './cli.js';

const readDemo = (dir: string): DemoCredentials => JSON.parse(readFileSync(join(dir, 'demo-credentials.json'), 'utf8'));

async function teamCount(dataDir: string): Promise<number> {
  const store = openStore({ dataDir });
  try {
    return (await store.db.selectFrom('teams').select('id').execute()).length;
  } finally {
    await store.close();
  }
}

// Each test starts one or two servers as processes of their own, seconds each on a loaded machine.
describe('aviary serve', { timeout: 90_000 }, () => {
  const { dataDir, serve } = serveScratch();

  it('--seed-demo seeds a fresh store, prints the logins and tokens, and the tokens work; SIGTERM exits 0', async () => {
    const dir = dataDir();
    const server = await serve(['--seed-demo', '--data', dir]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const demo = readDemo(dir);
    expect(statSync(join(dir, 'demo-credentials.json')).mode & 0o777).toBe(0o600);
    // The logins are for the person at the terminal (stderr); stdout is the JSON log.
    const printed = server.stderr();
    for (const user of demo.users) {
      expect(printed).toContain(user.email);
      expect(printed).toContain(user.password);
      expect(printed).toContain(user.token);
      expect((await getInfo(server.url, user.token)).body.id).toBe(user.id);
    }
    expect(printed).toContain(demo.app.botToken);
    expect(printed).toContain(join(dir, 'demo-credentials.json'));
    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('--seed-demo with loopback allowed runs the demo app in-process: its bot echoes, /poll opens its widget, links to its domain get a preview, its tab and message action answer', async () => {
    const dir = dataDir();
    const server = await serve(['--seed-demo', '--allow-internal-hosts', '127.0.0.0/8', '--data', dir]);
    expect(server.stderr()).toMatch(/The demo app runs in this process, its listener at http:\/\/127\.0\.0\.1:\d+\/events/);
    const demo = readDemo(dir);
    const [me] = demo.users;
    const signIn = await fetch(`${server.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: me!.email, password: me!.password }) });
    const { sessionToken } = (await signIn.json()) as { sessionToken: string };
    const headers = { authorization: `Bearer ${sessionToken}`, 'content-type': 'application/json' };
    const send = async (to: string, text: string) => {
      const answer = await fetch(`${server.url}/v1/chat.sendFromComposer`, { method: 'POST', headers, body: JSON.stringify({ to, text }) });
      expect(answer.status, text).toBe(200);
      return (await answer.json()) as { answer?: { kind: string; url: string } };
    };
    const stream = frames(`${server.url.replace(/^http/, 'ws')}/api/stream`, sessionToken);
    await stream.next((frame) => frame.type === 'hello');

    await send(demo.app.botUserId, 'Echo this, please');
    await stream.next((frame) => frame.type === 'message.created' && frame.message.from === demo.app.botUserId && frame.message.text === 'Echo this, please');

    const general = demo.channels.find((channel) => channel.members.includes(me!.id))!;
    const poll = await send(general.id, '/poll Lunch? | Pizza | Sushi');
    expect(poll.answer).toMatchObject({ kind: 'openWidget', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/widget\?/) });
    const widget = await fetch(poll.answer!.url);
    expect(widget.status).toBe(200);
    expect(await widget.text()).toContain('value="Lunch?"');

    await send(general.id, 'Start here: https://docs.example.com/start');
    await stream.next((frame) => frame.type === 'message.updated' && frame.message.attachments?.[0]?.title === 'docs.example.com/start');

    // The client's own buttons: the tab in the chat's header, and the action on a message.
    const act = async (method: string, body: unknown) => {
      const answer = await fetch(`${server.url}/v1/interactions.${method}`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(answer.status, method).toBe(200);
      return answer.json();
    };
    expect(await act('pressButton', { appId: demo.app.id, button: 'chatTabButton', chat: general.id })).toMatchObject({ kind: 'toast', text: expect.stringContaining('/poll') });
    const history = await fetch(`${server.url}/v1/chat.fetchMessages`, { method: 'POST', headers, body: JSON.stringify({ chat: general.id, limit: 1 }) });
    const [latest] = (await history.json()) as Array<{ uid: string }>;
    expect(await act('runMessageAction', { appId: demo.app.id, chat: general.id, messageUids: [latest!.uid] })).toMatchObject({ kind: 'toast', text: '3 words in 1 message' });
    stream.close();
    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('on a later start prints the same credentials again without seeding twice; SIGINT exits 0', async () => {
    const dir = dataDir();
    const first = await serve(['--seed-demo'], { AVIARY_DATA_DIR: dir });
    expect(await first.stop('SIGINT')).toBe(0);
    const demo = readDemo(dir);

    const second = await serve(['--seed-demo'], { AVIARY_DATA_DIR: dir });
    for (const user of demo.users) expect(second.stderr()).toContain(user.token);
    expect((await getInfo(second.url, demo.users[1].token)).body.id).toBe(demo.users[1].id);
    expect(await second.stop('SIGINT')).toBe(0);
    expect(await teamCount(dir)).toBe(1);
  });

  it('--seed-demo on a store that already has a team serves it and says there are no demo logins', async () => {
    const dir = dataDir();
    // The other commands are tested in-process; this one runs as a user runs it, in a process of its own.
    const made = await runCliProcess(['team', 'create', '--name', 'Hand made', '--data', dir, '--json']);
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toEqual({ id: expect.stringMatching(/^t:/) });
    const server = await serve(['--seed-demo', '--data', dir]);
    expect(server.stderr()).toContain('no demo logins');
    expect(await server.stop()).toBe(0);
    expect(await teamCount(dir)).toBe(1);
  });

  it('lets a request in flight finish after SIGTERM, closes its connection after the answer, then exits 0 and stops listening', async () => {
    const dir = dataDir();
    // A grace longer than the test may take: the connection, kept alive, must end with its answer, not with the grace.
    const server = await serve(['--seed-demo', '--data', dir], { AVIARY_SHUTDOWN_GRACE_MS: '120000' });
    const { token } = readDemo(dir).users[0];
    const body = `token=${encodeURIComponent(token)}`;
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    let response = '';
    socket.on('data', (chunk) => (response += chunk.toString()));
    const answered = new Promise((resolve) => socket.on('end', resolve));
    // With Expect: 100-continue, node answers "100 Continue" once it has read the headers: from then on
    // the request is in flight. Half of the body goes before the signal, the rest once the server says
    // it is draining.
    const continueLine = 'HTTP/1.1 100 Continue\r\n\r\n';
    const inFlight = new Promise<void>((resolve) => socket.on('data', () => response.startsWith(continueLine) && resolve()));
    socket.write(
      `POST /v1/users.getInfo HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/x-www-form-urlencoded\r\n` +
        `content-length: ${body.length}\r\nexpect: 100-continue\r\n\r\n${body.slice(0, 10)}`,
    );
    await inFlight;
    const draining = server.printedOnStdout((lines) => lines.some((line) => JSON.parse(line).msg === 'SIGTERM received, finishing in-flight requests'));
    const exited = server.stop('SIGTERM');
    await draining;
    // Written, not ended: the client keeps its side open, so only the server can end the connection.
    socket.write(body.slice(10));
    await answered;
    expect(response.slice(continueLine.length)).toMatch(/^HTTP\/1\.1 200 /);
    expect(await exited).toBe(0);
    await expect(fetch(`${server.url}/v1/users.getInfo`)).rejects.toThrow();
  });

  it('writes only JSON log lines on stdout, from listening to stopped', async () => {
    const dir = dataDir();
    const server = await serve(['--seed-demo', '--data', dir]);
    expect(await server.stop('SIGTERM')).toBe(0);
    const lines = server.stdout().split('\n');
    expect(lines.pop()).toBe('');
    const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string; time: number; url?: string; signal?: string });
    expect(entries.map((entry) => entry.msg)).toEqual(expect.arrayContaining([`listening on ${server.url}`, 'SIGTERM received, finishing in-flight requests', 'stopped']));
    expect(entries.find((entry) => entry.msg.startsWith('listening on'))).toMatchObject({ level: 30, url: server.url, time: expect.any(Number) });
    expect(entries.at(-1)).toMatchObject({ level: 30, msg: 'stopped', signal: 'SIGTERM' });
  });

  it('fails with a clear message and exit 1 when the port is taken', async () => {
    const dir = dataDir();
    const first = await serve(['--data', dir]);
    const result = await runCliProcess(['serve', '--data', dir, '--port', new URL(first.url).port]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^aviary: .*EADDRINUSE/m);
    // The log says so too, as JSON.
    expect(JSON.parse(result.stdout.trim())).toMatchObject({ level: 60, msg: expect.stringMatching(/^could not start: .*EADDRINUSE/) });
    expect(await first.stop()).toBe(0);
  });

  it('names HOST when it is no address of this machine, not the database', async () => {
    // An address of a documentation network: no interface of this machine has it, and no packet leaves.
    const result = await runCliProcess(['serve', '--data', dataDir(), '--port', '0'], { HOST: '192.0.2.1' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^aviary: HOST: cannot listen on "192\.0\.2\.1" \(EADDRNOTAVAIL\): give an address of this machine/m);
    expect(result.stderr).not.toMatch(/database/);
  });

  it('rejects a port that is not a number', async () => {
    const result = await runCli(['serve', '--port', 'eighty']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('expected a port number');
  });
});

interface Frame {
  type: string;
  message: { from: string; text: string; attachments?: Array<{ title?: string }> };
}

/** The stream's frames as a person's session receives them; `next` waits for one that matches (seen before or to come). */
function frames(url: string, sessionToken: string) {
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${sessionToken}` } });
  const seen: Frame[] = [];
  const waiters: Array<{ match: (frame: Frame) => boolean; resolve: (frame: Frame) => void }> = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Frame;
    seen.push(frame);
    for (const waiter of [...waiters]) if (waiter.match(frame)) waiters.splice(waiters.indexOf(waiter), 1) && waiter.resolve(frame);
  });
  return {
    next: (match: (frame: Frame) => boolean) => new Promise<Frame>((resolve) => {
      const found = seen.find(match);
      if (found) resolve(found);
      else waiters.push({ match, resolve });
    }),
    close: () => socket.close(),
  };
}
