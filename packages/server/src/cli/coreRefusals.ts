import { ApiError } from '../errors.js';
import { CliError, cliErrorCodes, type CliErrorCode } from './errors.js';

/**
 * How a command words a field that a core check refused (core/appFields.ts, core/personFields.ts): given
 * the field's name as the API names it and the check's sentence, the sentence for the option that gave
 * the field; undefined keeps the check's own.
 */
export type OptionWording = (parameter: string, description: string) => string | undefined;

/**
 * Runs a core command; its refusals (ApiError) become CLI errors. A refused field (InvalidParameter,
 * MissingParameter) is InvalidOption, worded for the option that gave it; other codes the CLI knows keep
 * their code.
 */
export async function asCliError<T>(run: () => T | Promise<T>, wording: OptionWording = () => undefined): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw cliErrorOf(error, wording);
  }
}

/** Fields that each have an option of their own: `firstName must …` becomes `--first-name must …`. */
export function optionsNamed(options: Record<string, string>): OptionWording {
  return (parameter, description) => (Object.hasOwn(options, parameter) ? description.replace(parameter, options[parameter]) : undefined);
}

function cliErrorOf(error: unknown, wording: OptionWording): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.code === 'InvalidParameter' || error.code === 'MissingParameter') {
    const parameter = error.context.parameter ?? '';
    // Left out or given empty alike: both are missing, and the message says what is needed.
    const description = error.code === 'MissingParameter' ? `${parameter} is required and must not be empty.` : error.message;
    return new CliError('InvalidOption', wording(parameter, description) ?? description);
  }
  return isCliErrorCode(error.code) ? new CliError(error.code, error.message) : error;
}

const isCliErrorCode = (code: string): code is CliErrorCode => (cliErrorCodes as readonly string[]).includes(code);

/** A refused entry of a list given by a repeated flag, named by the flag and the value that gave it; undefined for another field. */
function repeatedFlagWording(field: string, flag: string, values: readonly string[], parameter: string, description: string): string | undefined {
  const entry = new RegExp(`^${field}(?:\\[(\\d+)\\])?`).exec(parameter);
  if (!entry) return undefined;
  const named = entry[1] === undefined ? flag : `${flag} ${JSON.stringify(values[Number(entry[1])])}`;
  return `${named}: ${description.replace(new RegExp(`^${field}(\\[\\d+\\])? `), '')}`;
}

/** A refused allowed origin named by the repeated `--allowed-origin` flag that gave it; undefined for another field. */
export const allowedOriginWording = (origins: readonly string[], parameter: string, description: string): string | undefined =>
  repeatedFlagWording('allowedOrigins', '--allowed-origin', origins, parameter, description);

/** A refused event subscription named by the repeated `--event` flag that gave it; undefined for another field. */
export const eventWording = (events: readonly string[], parameter: string, description: string): string | undefined =>
  repeatedFlagWording('eventSubscriptions', '--event', events, parameter, description);
