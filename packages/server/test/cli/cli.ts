import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { listeningUrl } from '../../../../deploy/local/deployment.js';
import { runCli as runCommandLine } from '../../src/cli/program.js';
import { loopbackHosts } from '../helpers/server.js';

/** The CLI runs as a user runs it: `node packages/server/bin/aviary.js …` from the repository root. */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const entry = join(repoRoot, 'packages/server/bin/aviary.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment a command sees: none of the store settings of whoever runs the tests, quiet logs, and
 * the test listener apps on loopback allowed (as test servers allow them) unless a test says otherwise.
 */
function cliEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, AVIARY_DATA_DIR: _dir, PORT: _port, HOST: _host, ...rest } = process.env;
  return { ...rest, AVIARY_LOG_LEVEL: 'warn', AVIARY_ALLOWED_INTERNAL_HOSTS: loopbackHosts.join(','), ...env };
}

/**
 * Runs a command in this process, as `aviary …` would: the same program, the command's own environment
 * (see cliEnv) and what it prints on stdout and stderr captured. Calls made at once run one after the
 * other: a command has process.env and the output streams to itself while it runs.
 */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const result = running.then(() => runAlone(args, env));
  running = result.then(() => undefined);
  return result;
}

let running: Promise<void> = Promise.resolve();

async function runAlone(args: string[], env: Record<string, string>): Promise<CliResult> {
  const savedEnv = process.env;
  const output = { stdout: '', stderr: '' };
  const capture = (stream: NodeJS.WriteStream, into: 'stdout' | 'stderr') => {
    const write = stream.write;
    stream.write = ((chunk: string | Uint8Array) => {
      output[into] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      return true;
    }) as typeof stream.write;
    return () => void (stream.write = write);
  };
  const restoreStdout = capture(process.stdout, 'stdout');
  const restoreStderr = capture(process.stderr, 'stderr');
  process.env = cliEnv(env);
  try {
    const code = await runCommandLine([process.execPath, 'aviary', ...args]);
    return { code, ...output };
  } catch (error) {
    // What node prints for an error nothing caught, and its exit code.
    return { code: 1, stdout: output.stdout, stderr: `${output.stderr}${String(error)}\n` };
  } finally {
    process.env = savedEnv;
    restoreStdout();
    restoreStderr();
  }
}

/** Runs a command as a user does, in a process of its own (`node packages/server/bin/aviary.js …`). */
export function runCliProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [entry, ...args], { cwd: repoRoot, env: cliEnv(env) }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a --json command that must succeed and returns its one JSON object. */
export async function runCliJson<T = any>(args: string[], env: Record<string, string> = {}): Promise<T> {
  const result = await runCli([...args, '--json'], env);
  if (result.code !== 0) throw new Error(`aviary ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

export interface CliServer {
  url: string;
  child: ChildProcess;
  /** Everything printed on stdout so far: JSON log lines only. */
  stdout(): string;
  /** Everything printed on stderr so far (the demo logins, for the person at the terminal). */
  stderr(): string;
  /** The JSON log lines on stdout so far, parsed. */
  logLines(): LogLine[];
  /** Resolves with the lines on stdout (its log, at AVIARY_LOG_LEVEL) once `enough` of them holds. */
  printedOnStdout(enough: (lines: string[]) => boolean): Promise<string[]>;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** Starts `aviary serve --port 0 …` and waits for its `listening on <url>` log line (and the demo logins, when asked for). */
export function startCliServer(args: string[], env: Record<string, string> = {}): Promise<CliServer> {
  const child = spawn(process.execPath, [entry, 'serve', '--port', '0', ...args], { cwd: repoRoot, env: cliEnv(env) });
  let stdout = '';
  let stderr = '';
  const stdoutWaiters: Array<() => void> = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const check of stdoutWaiters.splice(0)) check();
      started();
    });
    // The demo block, when asked for, comes on stderr after the listening line and ends with a blank line.
    const started = () => {
      const url = listeningUrl(stdout);
      if (url && (!args.includes('--seed-demo') || stderr.endsWith('\n\n'))) {
        resolve({
          url,
          child,
          stdout: () => stdout,
          stderr: () => stderr,
          logLines: () => stdout.split('\n').slice(0, -1).map((line) => JSON.parse(line) as LogLine),
          printedOnStdout: (enough) =>
            new Promise<string[]>((resolve, reject) => {
              const check = () => {
                const lines = stdout.split('\n').slice(0, -1);
                if (enough(lines)) resolve(lines);
                else stdoutWaiters.push(check);
              };
              void exited.then(() => reject(new Error(`aviary serve exited before it printed what was awaited: ${stderr}`)));
              check();
            }),
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      started();
    });
    void exited.then((code) => reject(new Error(`aviary serve exited ${code} before listening: ${stderr}`)));
  });
}

export function tempDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'aviary-cli-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * What a test of `aviary serve` makes and must undo: data directories and server processes, removed and
 * killed after each test, last made first. `after` adds anything else to undo.
 */
export function serveScratch(defaultEnv: Record<string, string> = {}) {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    after: (cleanup: () => unknown) => cleanups.push(cleanup),
    dataDir(): string {
      const data = tempDataDir();
      cleanups.push(data.remove);
      return data.dir;
    },
    async serve(args: string[], env: Record<string, string> = defaultEnv): Promise<CliServer> {
      const server = await startCliServer(args, env);
      cleanups.push(() => server.child.exitCode === null && server.stop('SIGKILL'));
      return server;
    },
  };
}

/** users.getInfo with a token, over real HTTP. */
export async function getInfo(url: string, token: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/v1/users.getInfo?token=${encodeURIComponent(token)}`);
  return { status: response.status, body: await response.json() };
}
