// A PostgreSQL and a Redis of a test's own, on loopback ports the kernel picks, so that a fault test may
// stop and restart them without touching the machine's shared ones (which every other test uses).
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from '../../../../deploy/local/nginx.js';

const postgresBin = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'].find((dir) => existsSync(join(dir, 'pg_ctl')));
const redisServer = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0 ? 'redis-server' : undefined;

/** Why private services cannot run here, or undefined when they can. */
export const whyNoPrivateServices = !postgresBin ? 'no PostgreSQL server binaries (apt-get install postgresql)' : !redisServer ? 'no redis-server' : undefined;

export interface PrivateService {
  url: string;
  /** Stops it; what it stored stays for start(). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  remove(): Promise<void>;
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user. */
const asRoot = process.getuid?.() === 0;
const postgresUser = (): { uid: number; gid: number } => {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
};

function run(command: string, args: string[]): Promise<void> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return new Promise((resolve, reject) =>
    execFile(file, argv, { timeout: 60_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${command} ${args.join(' ')}: ${stderr || stdout || error.message}`)) : resolve())),
  );
}

/** A fresh cluster (trust auth, no fsync) with a database `test`. */
export async function startPrivatePostgres(): Promise<PrivateService> {
  if (!postgresBin) throw new Error(whyNoPrivateServices);
  const dir = mkdtempSync(join(tmpdir(), 'aviary-pg-'));
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  const port = await freeLoopbackPort();
  await run(join(postgresBin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = () => run(join(postgresBin, 'pg_ctl'), ['-D', data, '-o', options, '-w', '-t', '60', '-l', join(dir, 'log'), 'start']);
  const stop = () => run(join(postgresBin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  await start();
  await run(join(postgresBin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'test']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/test`,
    stop,
    start,
    remove: async () => {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Redis that keeps nothing on disk (as the machine's): a restart empties it. */
export async function startPrivateRedis(): Promise<PrivateService> {
  if (!redisServer) throw new Error(whyNoPrivateServices);
  const port = await freeLoopbackPort();
  const dir = mkdtempSync(join(tmpdir(), 'aviary-redis-'));
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-2000)}`)));
    });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    remove: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
