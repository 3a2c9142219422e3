import { ConfigError } from '../config.js';
import { StoreNewerError } from '../store/migrator.js';
import { isStoreUnavailable } from '../store/store.js';

/** The codes a command fails with; docs/errors.md lists them (a test keeps the two in step). */
export const cliErrorCodes = [
  'InvalidUsage',
  'InvalidOption',
  'InvalidConfig',
  'UnknownTeam',
  'UnknownUser',
  'UnknownApp',
  'EmailTaken',
  'TeamExists',
  'ImportConflict',
  'NotInstalled',
  'InstallFailed',
  'InstallInProgress',
  'BotNotEnabled',
  'UnknownEvent',
  'ListenerUnreachable',
  'ManifestInvalid',
  'PermissionDenied',
  'StoreUnavailable',
  'StoreNewer',
  'Failed',
] as const;

export type CliErrorCode = (typeof cliErrorCodes)[number];

/** A failure a command reports as `{error, description}`: a stable code and a sentence for a person. */
export class CliError extends Error {
  constructor(
    readonly code: CliErrorCode,
    description: string,
  ) {
    super(description);
  }
}

/** Anything a command threw, as a CliError; a setting it cannot use and an unreachable database get codes of their own. */
export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof ConfigError) return new CliError('InvalidConfig', error.message);
  if (error instanceof StoreNewerError) return new CliError('StoreNewer', error.message);
  // A failed migration wraps the driver's error; its code says whether the database was out of reach.
  const unreachable = [error, (error as { cause?: unknown })?.cause].find(isStoreUnavailable);
  if (unreachable) return new CliError('StoreUnavailable', `The database could not be reached: ${messageOf(unreachable)}`);
  return new CliError('Failed', messageOf(error));
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The clear message on stderr, and with --json the error object as the only thing on stdout. */
export function reportFailure(error: CliError, json: boolean): void {
  process.stderr.write(`aviary: ${error.message}\n`);
  if (json) process.stdout.write(`${JSON.stringify({ error: error.code, description: error.message })}\n`);
  process.exitCode = 1;
}
