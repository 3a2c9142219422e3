import type { AdminContext, CommandOutput } from './adminCommand.js';
import { CliError } from './errors.js';

export async function importSlackCommand(_admin: AdminContext, _dir: string, _flags: { team?: string; teamName?: string }): Promise<CommandOutput> {
  throw new CliError('Failed', 'not yet');
}
