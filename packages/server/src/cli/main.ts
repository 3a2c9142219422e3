import { Command, CommanderError } from 'commander';
import { registerAppCommands } from './app.js';
import type { CliErrorCode } from './errors.js';
import { registerSeedCommand } from './seed.js';
import { registerServeCommand } from './serve.js';
import { registerTeamCommands } from './team.js';
import { registerUserCommands } from './user.js';

const program = new Command('aviary')
  .description('Aviary: serve the platform, seed a demo, and manage teams, people and apps in its store.')
  // Set before the commands are added, which inherit it: usage errors come back here instead of exiting.
  .exitOverride()
  .showHelpAfterError('(add --help for usage)');

registerServeCommand(program);
registerSeedCommand(program);
registerTeamCommands(program);
registerUserCommands(program);
registerAppCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  // Commander has already explained the problem (or shown the help) on stderr.
  if (error.exitCode !== 0 && process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ error: 'InvalidUsage' satisfies CliErrorCode, description: error.message.replace(/^error: /, '') })}\n`);
  }
  process.exitCode = error.exitCode;
}
