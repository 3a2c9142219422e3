import { InvalidArgumentError, type Command } from 'commander';
import type pino from 'pino';
import type { Config } from '../config.js';
import { seedDemo, type DemoCredentials } from '../core/commands/seedDemo.js';
import { createLog } from '../log.js';
import { InternalHostsAllowList } from '../net/addressPolicy.js';
import type { RunningServer } from '../server.js';
import { openStore, type Db, type Store } from '../store/store.js';
import { configFrom, withStoreOptions, type StoreFlags } from './adminCommand.js';
import { DEMO_PREVIEW_DOMAIN, startDemoApp, type RunningDemoApp } from './demoApp.js';
import { demoCredentialsFile, formatDemoCredentials, loadDemoCredentials, saveDemoCredentials } from './demoCredentials.js';
import { reportFailure, toCliError } from './errors.js';
import { findTeam, hasAnyTeam } from './lookups.js';
import { allowInternalHostsHelp, parseHostList } from './options.js';

interface ServeFlags extends StoreFlags {
  port?: number;
  host?: string;
  seedDemo?: boolean;
  allowInternalHosts?: string[];
}

export function registerServeCommand(program: Command): void {
  withStoreOptions(program.command('serve').description('Migrate the store and serve the API; SIGTERM or SIGINT drains and exits.'))
    .option('--port <number>', 'port to listen on, 0 for any free one (env PORT; default 8080)', parsePort)
    .option('--host <address>', 'address to listen on (env HOST; default 127.0.0.1)')
    .option('--seed-demo', 'seed the demo team into a store that has no team yet, then print the demo logins and tokens')
    .option('--allow-internal-hosts <list>', allowInternalHostsHelp, parseHostList)
    .action((flags: ServeFlags) => serve(flags));
}

async function serve(flags: ServeFlags): Promise<void> {
  let store: Store | undefined;
  let server: RunningServer;
  let demo: DemoCredentials | undefined;
  let demoApp: RunningDemoApp | undefined;
  let config: Config;
  let log: pino.Logger | undefined;
  try {
    config = configFrom(flags, { port: flags.port, host: flags.host, allowedInternalHosts: flags.allowInternalHosts });
    log = createLog(config);
    store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, secretKeys: config.secretKeys });
    await store.migrate();
    if (flags.seedDemo) demo = await demoCredentialsFor(store.db, config.dataDir);
    // Loaded here, not at the top: the HTTP stack would slow every other command's start by about a second.
    const { startServer } = await import('../server.js');
    server = await startServer(config, { store, log });
  } catch (error) {
    await store?.close();
    const failure = toCliError(error);
    log?.fatal({ err: error, code: failure.code }, `could not start: ${failure.message}`);
    reportFailure(failure, false);
    return;
  }
  const lifecycle = lifecycleLog(log!);
  // The demo app's listener is on loopback: it runs only where the server may call loopback listeners.
  if (demo && demoAppReachable(config)) {
    demoApp = await startDemoApp(store.db, server.url, demo.app, Date.now()).catch((error: unknown) => {
      lifecycle.warn({ err: error }, 'the demo app could not start; the server runs without it');
      return undefined;
    });
  }
  // Before announcing: whoever reads the announcement may signal at once.
  drainOnSignals(server, demoApp, lifecycle);
  if (config.allowedInternalHosts.length > 0) {
    // Said out loud: whoever can make an app can send requests to these hosts through the server.
    lifecycle.warn(
      { allowedInternalHosts: config.allowedInternalHosts },
      `app listeners may be at these internal hosts: ${config.allowedInternalHosts.join(', ')} (allowed by --allow-internal-hosts or AVIARY_ALLOWED_INTERNAL_HOSTS)`,
    );
  }
  // Tests and scripts read the address from this line (its `url`) when they ask for port 0: it comes last.
  lifecycle.info({ url: server.url }, `listening on ${server.url}`);
  if (flags.seedDemo) {
    const file = demoCredentialsFile(config.dataDir);
    const block = demo
      ? formatDemoCredentials(demo, { file, url: server.url })
      : `This store already had a team when the demo was to be seeded, so there are no demo logins to print\n(none for it in ${file}).`;
    const about = demoApp
      ? `The demo app runs in this process, its listener at ${demoApp.url}: message its bot, try /poll Lunch? | Pizza | Sushi, or post a link to ${DEMO_PREVIEW_DOMAIN}.`
      : demo && 'The demo app is not run: its listener would be on loopback, which --allow-internal-hosts does not allow.';
    // For the person at the terminal, not for the log: stdout carries only JSON lines. The block ends
    // with a blank line, which tells whoever reads it that it is whole.
    process.stderr.write(`\n${block}\n${about ? `\n${about}\n` : ''}\n`);
  }
}

/** Whether the server may deliver to a listener on 127.0.0.1 (`--allow-internal-hosts`, as `npm start` sets it). */
function demoAppReachable(config: Config): boolean {
  return InternalHostsAllowList.parse(config.allowedInternalHosts).allowsAddress('127.0.0.1');
}

/**
 * The lines that say where the process listens and that it stops: written whatever AVIARY_LOG_LEVEL
 * says (but `silent`), since scripts and supervisors read them.
 */
function lifecycleLog(log: pino.Logger): pino.Logger {
  return log.isLevelEnabled('info') || log.level === 'silent' ? log : log.child({}, { level: 'info' });
}

/** Seeds a store that has no team; otherwise the credentials saved when this store was seeded, if any. */
async function demoCredentialsFor(db: Db, dataDir: string): Promise<DemoCredentials | undefined> {
  if (!(await hasAnyTeam(db))) {
    const credentials = await seedDemo(db, Date.now());
    saveDemoCredentials(dataDir, credentials);
    return credentials;
  }
  const saved = loadDemoCredentials(dataDir);
  // A file left from another store (the same --data with another --database-url) names a team this one lacks.
  return saved && (await findTeam(db, saved.teamId)) ? saved : undefined;
}

function drainOnSignals(server: RunningServer, demoApp: RunningDemoApp | undefined, log: pino.Logger): void {
  const drain = (signal: NodeJS.Signals) => {
    log.info({ signal }, `${signal} received, finishing in-flight requests`);
    // The HTTP server and the store are closed by then; exiting does not wait on anything else.
    Promise.all([server.close(), demoApp?.close()]).then(
      () => {
        log.info({ signal }, 'stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error, signal }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', drain);
  process.once('SIGINT', drain);
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return port;
}
