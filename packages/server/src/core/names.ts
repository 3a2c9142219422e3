import { nameProblem } from '@aviary/protocol';
import { invalidParameter } from '../errors.js';

/**
 * The one check that a name people read (an app's, a person's, a channel's, a `sendAs` name) shows
 * something and cannot reorder what follows it (@aviary/protocol's nameProblem); InvalidParameter
 * naming `field` otherwise. Returns the name as given.
 */
export function checkVisibleName(field: string, name: string): string {
  const problem = nameProblem(name);
  if (problem !== undefined) throw invalidParameter(field, `${field} ${problem}.`);
  return name;
}
