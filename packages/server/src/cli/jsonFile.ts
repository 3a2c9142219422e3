import { readFileSync } from 'node:fs';
import { CliError } from './errors.js';

/** A JSON file an option names; a file that cannot be read or parsed is an InvalidOption naming both. */
export function readJsonFile(option: string, path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError('InvalidOption', `${option} ${path} cannot be read: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError('InvalidOption', `${option} ${path} is not valid JSON: ${(error as Error).message}`);
  }
}
