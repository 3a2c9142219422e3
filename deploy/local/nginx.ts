// nginx for a run on loopback: deploy/nginx/aviary.conf with this run's ports, started by the current
// user in a directory of its own (no system service, nothing under /etc or /var). Used by the
// multi-process tests and by deploy/local/run.ts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const siteConfigFile = fileURLToPath(new URL('../nginx/aviary.conf', import.meta.url));

/** How long nginx may take to start listening, and to stop, before the launcher gives up on it. */
const startTimeoutMs = 10_000;
const stopTimeoutMs = 5_000;

export interface LocalNginx {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** The directory nginx runs in (its config, pid file and temporary files); removed by stop(). */
  prefix: string;
  /** What nginx printed on stderr so far (its error log). */
  errors(): string;
  /** Stops nginx (fast shutdown, then SIGKILL to its process group if it lingers) and removes its directory. */
  stop(): Promise<void>;
}

/** The nginx binary: $NGINX, else `nginx` on the PATH or in /usr/sbin (Debian's package). */
export function findNginx(): string | undefined {
  const candidates = [process.env.NGINX, 'nginx', '/usr/sbin/nginx'].filter((candidate): candidate is string => !!candidate);
  return candidates.find((candidate) => spawnSync(candidate, ['-v'], { stdio: 'ignore' }).status === 0);
}

/**
 * The site config with `backends` (`host:port` of each process) as the upstream and `listen` as the
 * address, inside a main config that keeps every file nginx writes under `prefix`.
 */
export function renderNginxConfig(options: { backends: string[]; listen: string; prefix: string }): string {
  const rendered = renderSiteConfig(options);
  const temp = (name: string) => join(options.prefix, 'temp', name);
  return [
    '# Rendered by deploy/local/nginx.ts from deploy/nginx/aviary.conf.',
    // The master runs as the current user; as root its workers would otherwise become nobody, who may
    // not enter this directory.
    ...(process.getuid?.() === 0 ? [`user ${userInfo().username};`] : []),
    'daemon off;',
    'worker_processes 1;',
    `pid ${join(options.prefix, 'nginx.pid')};`,
    'error_log stderr warn;',
    'events { worker_connections 1024; }',
    'http {',
    '  access_log off;',
    `  client_body_temp_path ${temp('body')};`,
    `  proxy_temp_path ${temp('proxy')};`,
    `  fastcgi_temp_path ${temp('fastcgi')};`,
    `  uwsgi_temp_path ${temp('uwsgi')};`,
    `  scgi_temp_path ${temp('scgi')};`,
    ...rendered,
    '}',
    '',
  ].join('\n');
}

/**
 * deploy/nginx/aviary.conf (what goes in nginx's http block) with `backends` as the upstream's servers
 * and `listen` as the address; also what deploy/docker/nginx.conf holds for compose.yaml.
 */
export function renderSiteConfig(options: { backends: string[]; listen: string }): string[] {
  if (options.backends.length === 0) throw new Error('nginx needs at least one process to send requests to.');
  const lines = readFileSync(siteConfigFile, 'utf8').split('\n');
  const upstreamStart = /^\s*upstream \S+ \{$/;
  const upstreamServer = /^(\s*)server \S+(.*);$/;
  const listen = /^(\s*)listen \S+;$/;
  if (!lines.some((line) => upstreamServer.test(line)) || !lines.some((line) => listen.test(line))) {
    throw new Error(`${siteConfigFile} has no upstream "server" line or no "listen" line of its own to replace.`);
  }
  // In each upstream, the backends take the first server line's place, with its parameters (max_fails…);
  // the other server lines go.
  let replaced = true;
  const rendered = lines.flatMap((line) => {
    if (upstreamStart.test(line)) replaced = false;
    const server = upstreamServer.exec(line);
    if (server && replaced) return [];
    if (server) {
      replaced = true;
      const [, indent, parameters] = server;
      return options.backends.map((backend) => `${indent}server ${backend}${parameters};`);
    }
    return [line.replace(listen, `$1listen ${options.listen};`)];
  });
  return rendered;
}

/**
 * Starts nginx on a free loopback port in front of `backends`, and resolves once it listens (it writes
 * its pid file after opening its listening sockets).
 */
export async function startLocalNginx(options: { backends: string[]; port?: number; nginx?: string }): Promise<LocalNginx> {
  const nginx = options.nginx ?? findNginx();
  if (!nginx) throw new Error('nginx is not installed (Debian: apt-get install nginx), or set NGINX to its path.');
  // A free port found now may be taken before nginx binds it: then another, a few times.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startNginxOn(nginx, options.port ?? (await freeLoopbackPort()), options.backends);
    } catch (error) {
      if (options.port !== undefined || attempt === 3 || !String(error).includes('Address already in use')) throw error;
    }
  }
}

async function startNginxOn(nginx: string, port: number, backends: string[]): Promise<LocalNginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'aviary-nginx-'));
  mkdirSync(join(prefix, 'temp'));
  const configFile = join(prefix, 'nginx.conf');
  writeFileSync(configFile, renderNginxConfig({ backends, listen: `127.0.0.1:${port}`, prefix }));

  const pidFile = join(prefix, 'nginx.pid');
  let watcher: FSWatcher | undefined;
  const pidWritten = new Promise<void>((resolve) => {
    watcher = watch(prefix, () => existsSync(pidFile) && resolve());
    if (existsSync(pidFile)) resolve();
  });
  // A process group of its own, so that stop() can reach the workers too if the master will not go.
  const child = spawn(nginx, ['-p', prefix, '-c', configFile, '-e', 'stderr'], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    await stopGroup(child, exited);
    rmSync(prefix, { recursive: true, force: true });
  };
  try {
    const failed = exited.then(() => Promise.reject(new Error('nginx exited')));
    await within(startTimeoutMs, Promise.race([pidWritten, failed]), 'nginx did not start listening');
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}: ${errors.trim()}`);
  } finally {
    watcher?.close();
  }
  return { url: `http://127.0.0.1:${port}`, port, prefix, errors: () => errors, stop };
}

/** A loopback port nothing listens on right now (the kernel's pick for port 0). */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function stopGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  try {
    await within(stopTimeoutMs, exited, 'nginx did not stop');
  } catch {
    // The master and its workers share the group started above: none of them outlives the run.
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
  }
}

async function within<T>(timeoutMs: number, promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${message} within ${timeoutMs} ms`)), timeoutMs)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
