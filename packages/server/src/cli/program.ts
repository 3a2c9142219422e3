import { Command, CommanderError } from 'commander';
import { registerAppCommands } from './app.js';
import { registerAppAdminCommands } from './appAdmin.js';
import { registerBackupCommands } from './backup.js';
import { registerEventCommands } from './events.js';
import { registerChannelCommands, registerUserListCommand } from './listings.js';
import { registerManifestCommands } from './manifest.js';
import { registerMigrateCommand } from './migrate.js';
import type { CliErrorCode } from './errors.js';
import { registerListenCommand } from './listen.js';
import { registerRetentionCommands } from './retention.js';
import { registerSearchCommands } from './search.js';
import { registerSeedCommand } from './seed.js';
import { registerServeCommand } from './serve.js';
import { registerTeamCommands } from './team.js';
import { registerTriggerCommand } from './trigger.js';
import { registerUserCommands } from './user.js';
import { aviaryVersion } from '../version.js';

function buildProgram(): Command {
  const program = new Command('aviary')
    .description('Aviary: serve the platform, seed a demo, manage teams, people and apps in its store, and try and debug apps.')
    // Set before the commands are added, which inherit it: usage errors come back here instead of exiting.
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .version(aviaryVersion, '-V, --version', 'print the version of Aviary and exit');
  registerServeCommand(program);
  registerMigrateCommand(program);
  registerBackupCommands(program);
  registerSeedCommand(program);
  registerTeamCommands(program);
  registerUserListCommand(registerUserCommands(program));
  registerChannelCommands(program);
  const app = registerAppCommands(program);
  registerAppAdminCommands(app);
  registerManifestCommands(app);
  registerEventCommands(program);
  registerSearchCommands(program);
  registerRetentionCommands(program);
  registerTriggerCommand(program);
  registerListenCommand(program);
  return program;
}

/**
 * Runs one command line (`argv` as in process.argv) and resolves with its exit code. Commands report a
 * failure through `process.exitCode`; it is read here and put back as it was, so that a test can run
 * commands in its own process. (`serve` keeps running until a signal, and then exits the process.)
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const exitCodeBefore = process.exitCode;
  process.exitCode = undefined;
  try {
    await buildProgram().parseAsync([...argv]);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // Commander has already explained the problem (or shown the help) on stderr.
    if (error.exitCode !== 0 && argv.includes('--json')) {
      process.stdout.write(`${JSON.stringify({ error: 'InvalidUsage' satisfies CliErrorCode, description: error.message.replace(/^error: /, '') })}\n`);
    }
    process.exitCode = error.exitCode;
  }
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = exitCodeBefore;
  return exitCode;
}
