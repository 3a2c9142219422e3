// The deployment of docs/deploy.md on one machine: `aviary migrate` once, N `aviary serve` processes on
// one PostgreSQL and one Redis, nginx in front, all on loopback. The multi-process tests start it, and so
// can anyone (deploy/local/run.ts).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalNginx, type LocalNginx } from './nginx.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const aviaryEntry = join(repoRoot, 'packages/server/bin/aviary.js');

/** How long a process may take to start listening, and to migrate the store. */
const startTimeoutMs = 60_000;
/** What is kept of a process's output for an error message: its end. */
const keptOutputChars = 64 * 1024;

export interface LocalDeploymentOptions {
  processes: number;
  /** `postgres://…`: the database every process shares. */
  databaseUrl: string;
  /** `redis://…`: the Redis every process shares. */
  redisUrl: string;
  /** More environment for every process (AVIARY_LOG_LEVEL, AVIARY_ALLOWED_INTERNAL_HOSTS…). */
  env?: Record<string, string>;
  /** nginx's port; when absent, a free one the kernel picks (every process listens on one too). */
  port?: number;
}

export interface AviaryProcess {
  /** Where the process itself listens (not through nginx). */
  url: string;
  child: ChildProcess;
  /** The end of what it printed (stdout and stderr). */
  output(): string;
  /** Sends the signal and resolves once the process is gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface LocalDeployment {
  /** nginx: where clients connect. */
  url: string;
  nginx: LocalNginx;
  processes: AviaryProcess[];
  /**
   * A restart as a service manager does it: SIGTERM (the process drains and exits), then the same
   * process again on the same port, with the same environment and data directory. Resolves with the new
   * process once it listens; it takes the old one's place in `processes`.
   */
  restart(index: number): Promise<AviaryProcess>;
  /** Stops nginx and every process still running (SIGTERM, then SIGKILL if one lingers), and removes their files. */
  stop(): Promise<void>;
}

/** Starts the deployment; whatever it started is stopped again if a later step fails. */
export async function startLocalDeployment(options: LocalDeploymentOptions): Promise<LocalDeployment> {
  const dataRoot = mkdtempSync(join(tmpdir(), 'aviary-deployment-'));
  const processes: AviaryProcess[] = [];
  let nginx: LocalNginx | undefined;
  const stop = async () => {
    await nginx?.stop();
    await Promise.all(processes.map((server) => stopProcess(server)));
    rmSync(dataRoot, { recursive: true, force: true });
  };
  try {
    const env = {
      // Every process seals and opens app secrets with the same key; each has a data directory of its own.
      AVIARY_SECRET_KEY: randomBytes(32).toString('base64'),
      ...options.env,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      // Every request reaches the processes from nginx, on loopback: its X-Forwarded-For is believed.
      AVIARY_TRUST_PROXY: '127.0.0.1',
      // No AVIARY_PUBLIC_URL: nginx's port is not known until it listens (a free one, picked last, and
      // picked again if another program takes it first). Pages check their Origin against the Host
      // nginx passes on, which is that address.
    };
    await migrateOnce(env, join(dataRoot, 'migrate'));
    const envOf = (index: number) => ({ ...env, AVIARY_DATA_DIR: join(dataRoot, `process-${index + 1}`) });
    const starting = Array.from({ length: options.processes }, (_, index) => startAviaryProcess(envOf(index)));
    const started = await Promise.allSettled(starting);
    for (const result of started) if (result.status === 'fulfilled') processes.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    nginx = await startLocalNginx({ backends: processes.map((server) => new URL(server.url).host), port: options.port });
    const restart = async (index: number): Promise<AviaryProcess> => {
      const old = processes[index];
      await stopProcess(old);
      // The port the kernel gave it at first: nginx's upstream names it.
      processes[index] = await startAviaryProcess({ ...envOf(index), PORT: new URL(old.url).port }, []);
      return processes[index];
    };
    return { url: nginx.url, nginx, processes, restart, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `aviary migrate`, once, before any process starts. */
function migrateOnce(env: Record<string, string>, dataDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [aviaryEntry, 'migrate', '--data', dataDir], { cwd: repoRoot, env: { ...process.env, ...env }, timeout: startTimeoutMs }, (error, _stdout, stderr) =>
      error ? reject(new Error(`aviary migrate failed: ${stderr || error.message}`)) : resolve(),
    );
  });
}

/** `aviary serve --port 0` (or `args`), resolved once it logs the address it listens on. */
export function startAviaryProcess(env: Record<string, string>, args = ['--port', '0']): Promise<AviaryProcess> {
  const child = spawn(process.execPath, [aviaryEntry, 'serve', ...args], { cwd: repoRoot, env: { ...process.env, ...env } });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-keptOutputChars));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  const started = new Promise<AviaryProcess>((resolve, reject) => {
    child.stdout.on('data', () => {
      const url = listeningUrl(output);
      if (url) resolve({ url, child, output: () => output, kill });
    });
    void exited.then(() => reject(new Error(`aviary serve exited (${child.exitCode ?? child.signalCode}) before listening: ${output}`)));
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`aviary serve did not listen within ${startTimeoutMs} ms: ${output}`)), startTimeoutMs)));
  return Promise.race([started, timeout]).finally(() => clearTimeout(timer)).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await exited;
    throw error;
  });
}

/** The address in the JSON log line `aviary serve` writes once it listens (`{"msg":"listening on …","url":…}`). */
export function listeningUrl(output: string): string | undefined {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: unknown; url?: unknown };
      if (typeof entry.url === 'string' && typeof entry.msg === 'string' && entry.msg.startsWith('listening on ')) return entry.url;
    } catch {
      // A line still being written; the next chunk completes it.
    }
  }
  return undefined;
}

/**
 * SIGTERM drains; a process that has not gone after the drain's grace gets SIGKILL. The drain takes up
 * to 5 s for the streams and AVIARY_SHUTDOWN_GRACE_MS (10 s) for HTTP: the bound is well past both.
 */
async function stopProcess(server: AviaryProcess, graceMs = 30_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const lingering = new Promise<'lingering'>((resolve) => (timer = setTimeout(() => resolve('lingering'), graceMs)));
  const stopped = await Promise.race([server.kill('SIGTERM'), lingering]);
  clearTimeout(timer);
  if (stopped === 'lingering') await server.kill('SIGKILL');
}
