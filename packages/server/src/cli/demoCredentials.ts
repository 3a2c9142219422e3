import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DemoCredentials } from '../core/commands/seedDemo.js';
import { ensurePrivateDataDir } from '../store/store.js';
import { CliError } from './errors.js';

export const demoCredentialsFile = (dataDir: string): string => join(dataDir, 'demo-credentials.json');

/**
 * The store keeps passwords and tokens only hashed, so the demo's are written here, readable by the owner
 * alone, for `serve --seed-demo` to print again on later starts.
 */
export function saveDemoCredentials(dataDir: string, credentials: DemoCredentials): string {
  ensurePrivateDataDir(dataDir);
  const file = demoCredentialsFile(dataDir);
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  // `mode` applies only when the file is created; a file left from an earlier store keeps its own.
  chmodSync(file, 0o600);
  return file;
}

/** The saved credentials, or undefined when none were saved under this data directory. */
export function loadDemoCredentials(dataDir: string): DemoCredentials | undefined {
  const file = demoCredentialsFile(dataDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError('Failed', `Could not read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as DemoCredentials;
  } catch {
    throw new CliError('Failed', `${file} is not valid JSON.`);
  }
}

/** The readable block of demo logins and tokens. */
export function formatDemoCredentials(credentials: DemoCredentials, where: { file: string; url?: string }): string {
  const { users, app } = credentials;
  const width = Math.max(...users.map((user) => user.email.length));
  const row = (email: string, value: string) => `  ${email.padEnd(width)}  ${value}`;
  const baseUrl = where.url ?? 'http://127.0.0.1:8080';
  return [
    `Demo team ${credentials.teamId}`,
    '',
    `Logins: email, password, user id (${users[0].firstName} is the team admin):`,
    ...users.map((user) => row(user.email, `${user.password}   ${user.id}   ${user.firstName} ${user.lastName}`)),
    '',
    `App "Aviary Demo" ${app.id}`,
    `  secret     ${app.secret}`,
    `  bot        ${app.botUserId}`,
    `  bot token  ${app.botToken}`,
    '',
    'Each person has installed the app; their tokens for it:',
    ...users.map((user) => row(user.email, user.token)),
    '',
    `Try: curl '${baseUrl}/v1/users.getInfo?token=${users[0].token}'`,
    `These credentials are saved in ${where.file} (readable only by you)`,
    'and printed again by every `aviary serve --seed-demo` on this data.',
  ].join('\n');
}
