import type { Command } from 'commander';
import { ListenClient } from './listenClient.js';
import { httpUrl } from './options.js';

/** `aviary listen`: an app's events from a running server, forwarded to a local URL, with no tunnel. */
export function registerListenCommand(program: Command): void {
  program
    .command('listen')
    .description("Receive an app's events from a running Aviary over a WebSocket and forward each to a local URL; Ctrl-C stops.")
    .requiredOption('--app <id>', "the app's id")
    .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/events', httpUrl)
    .option('--server <url>', 'the Aviary server (env AVIARY_URL; default http://127.0.0.1:8080)', httpUrl)
    .option('--token <token>', "the app developer's session token (env AVIARY_TOKEN)")
    .option('--secret <secret>', "the app's secret instead of a session (env AVIARY_APP_SECRET)")
    .action(async (options: { app: string; forwardTo: string; server?: string; token?: string; secret?: string }) => {
      const credential = options.token || options.secret || process.env.AVIARY_TOKEN || process.env.AVIARY_APP_SECRET;
      if (!credential) {
        process.stderr.write("aviary listen needs --token (the developer's session token) or --secret (the app's secret).\n");
        process.exitCode = 2;
        return;
      }
      const client = new ListenClient({
        appId: options.app,
        server: options.server ?? process.env.AVIARY_URL ?? 'http://127.0.0.1:8080',
        credential,
        forwardTo: options.forwardTo,
        print: (line) => process.stdout.write(`${line}\n`),
      });
      const stopped = new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      try {
        await Promise.race([client.connected.then(() => stopped), stopped]);
      } catch {
        process.exitCode = 1;
      } finally {
        client.stop();
      }
    });
}
