// Checks of what a person typed that no core check covers; each failure names the option. App and
// person fields are checked by core (core/appFields.ts, core/personFields.ts), worded for the options
// by coreRefusals.ts.
import { CliError } from './errors.js';

export function requireText(option: string, value: string, maxLength = 255): string {
  const text = value.trim();
  if (text === '') throw new CliError('InvalidOption', `${option} must not be empty.`);
  if (text.length > maxLength) throw new CliError('InvalidOption', `${option} must be at most ${maxLength} characters; got ${text.length}.`);
  return text;
}
