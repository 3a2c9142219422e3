// Parsers of option values shared by several commands; a bad value is a usage error that names the option.
import { InvalidArgumentError, type Command } from 'commander';
import { InternalHostsAllowList } from '../net/addressPolicy.js';

/** A whole number from 1 to `max`, such as a --limit. */
export function positiveInteger(max: number): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!/^\d+$/.test(value) || number < 1 || number > max) throw new InvalidArgumentError(`expected a whole number from 1 to ${max}.`);
    return number;
  };
}

/** A comma list of internal hosts allowed as listeners, checked as the server checks its own. */
export function parseHostList(value: string): string[] {
  const hosts = value.split(',').map((host) => host.trim()).filter((host) => host !== '');
  try {
    InternalHostsAllowList.parse(hosts);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  return hosts;
}

export const allowInternalHostsHelp =
  'comma list of host names, IP addresses and CIDR ranges that app listeners may be at although they are internal, ' +
  'e.g. 127.0.0.0/8,::1,localhost for a local demo (env AVIARY_ALLOWED_INTERNAL_HOSTS; default none)';

/** Declares a command's required options from a table (the flags, then what they are): one place for the pattern. */
export function withRequiredOptions(command: Command, options: Record<string, string>): Command {
  for (const [flags, description] of Object.entries(options)) command.requiredOption(flags, description);
  return command;
}

/** An option's argument parser: an http(s) URL, as given. */
export function httpUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {
    // Explained below.
  }
  throw new InvalidArgumentError(`"${value}" must be an http:// or https:// URL.`);
}
