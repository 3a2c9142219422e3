import { missingParameter } from './errors.js';

/**
 * The parameters a request of one shape needs, where a route takes either of two shapes (pressing an
 * app's button or an attachment's): MissingParameter for the first one absent, in the order named.
 */
export function required<P extends Record<string, unknown>, K extends keyof P & string>(params: P, ...names: K[]): P & { [N in K]-?: Exclude<P[N], undefined> } {
  for (const name of names) if (params[name] === undefined) throw missingParameter(name);
  return params as P & { [N in K]-?: Exclude<P[N], undefined> };
}
