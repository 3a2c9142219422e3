import {
  integrationButtonKeys,
  maxIntegrationNameLength,
  maxPreviewDomains,
  maxSlashCommandDescriptionLength,
  maxSlashCommandNameLength,
  maxSlashCommands,
  slashCommandNamePattern,
  type Action,
  type IntegrationButton,
  type Integrations,
  type SlashCommand,
} from '@aviary/protocol';
import { checkUrl, validateAction, type FieldResult } from '@aviary/serviceml';
import type { AppsTable } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { usableInstalledApp } from './policies/apps.js';

/**
 * An app's integrations (the `Integrations` of the protocol; docs/reference/integrations.md): how people reach it from the client.
 * Stored as JSON in `apps.integrations`, always in the normalised form `validateIntegrations` returns
 * (action aliases resolved, URLs trimmed), so readers never validate again.
 */
export type { Integrations } from '@aviary/protocol';

/** The buttons an app adds to the client, by their key in `Integrations`. */
export const buttonKinds = integrationButtonKeys;

const integrationFields = ['slashCommands', ...buttonKinds, 'messageAction', 'previewDomains'];

export const emptyIntegrations = (): Integrations => ({ slashCommands: [], previewDomains: [] });

/** The stored integrations of an app row. */
export function readIntegrations(app: Pick<AppsTable, 'integrations'>): Integrations {
  return { ...emptyIntegrations(), ...(JSON.parse(app.integrations) as Partial<Integrations>) };
}

/** What `normaliseIntegrations` throws: the path of the wrong field and what is wrong with it. */
export class InvalidIntegration extends Error {
  constructor(
    readonly parameter: string,
    readonly description: string,
  ) {
    super(description);
  }
}

/**
 * Validates a whole integrations object. A failure names the exact path of the one field to fix
 * (`slashCommands[0].action.url`), or `integrations` when the value as a whole is wrong.
 */
export function validateIntegrations(value: unknown): FieldResult<Integrations> {
  try {
    return { ok: true, value: normaliseIntegrations(value) };
  } catch (error) {
    if (error instanceof InvalidIntegration) return { ok: false, parameter: error.parameter, description: error.description };
    throw error;
  }
}

/**
 * The validated integrations, for callers without an API request to answer (commands, seeds, tests);
 * the API checks first and answers InvalidParameter. Throws InvalidIntegration naming the field.
 */
export function normaliseIntegrations(value: unknown): Integrations {
  const object = expectObject(value, 'integrations', integrationFields);
  const integrations: Integrations = {
    slashCommands: absent(object.slashCommands) ? [] : readSlashCommands(object.slashCommands),
    previewDomains: absent(object.previewDomains) ? [] : readPreviewDomains(object.previewDomains),
  };
  for (const kind of buttonKinds) {
    if (!absent(object[kind])) integrations[kind] = readButton(object[kind], kind);
  }
  if (!absent(object.messageAction)) {
    const at = 'messageAction';
    const fields = expectObject(object.messageAction, at, ['name', 'action']);
    integrations.messageAction = { name: readName(fields, at), action: readAction(fields, at) };
  }
  return integrations;
}

function readSlashCommands(value: unknown): SlashCommand[] {
  const items = expectArray(value, 'slashCommands', maxSlashCommands);
  const seen = new Set<string>();
  return items.map((item, index) => {
    const at = `slashCommands[${index}]`;
    const fields = expectObject(item, at, ['name', 'description', 'action']);
    const name = fields.name;
    if (typeof name !== 'string' || !slashCommandNamePattern.test(name) || name.length > maxSlashCommandNameLength) {
      throw new InvalidIntegration(
        `${at}.name`,
        `${at}.name must be 1 to ${maxSlashCommandNameLength} letters, digits, _ or -, starting with a letter or digit, without the slash; got ${describe(name)}`,
      );
    }
    if (seen.has(name)) throw new InvalidIntegration(`${at}.name`, `${at}.name "${name}" is used by an earlier command; each command needs its own name`);
    seen.add(name);
    const description = readOptionalText(fields, 'description', at, maxSlashCommandDescriptionLength);
    return { name, ...(description !== undefined ? { description } : {}), action: readAction(fields, at) };
  });
}

function readButton(value: unknown, at: string): IntegrationButton {
  const fields = expectObject(value, at, ['name', 'icon', 'action']);
  const name = readName(fields, at);
  let icon: string | undefined;
  if (!absent(fields.icon)) {
    const check = typeof fields.icon === 'string' ? checkUrl(fields.icon, ['https', 'http']) : undefined;
    if (!check?.ok) throw new InvalidIntegration(`${at}.icon`, `${at}.icon must be an http or https URL of an image; ${check ? check.reason : `got ${describe(fields.icon)}`}`);
    icon = check.url;
  }
  return { name, ...(icon !== undefined ? { icon } : {}), action: readAction(fields, at) };
}

function readPreviewDomains(value: unknown): string[] {
  const items = expectArray(value, 'previewDomains', maxPreviewDomains);
  const seen = new Set<string>();
  return items.map((item, index) => {
    const at = `previewDomains[${index}]`;
    const problem = previewDomainProblem(item);
    if (problem) throw new InvalidIntegration(at, `${at} ${problem}; write example.com or *.example.com`);
    if (seen.has(item as string)) throw new InvalidIntegration(at, `${at} "${item as string}" is listed twice`);
    seen.add(item as string);
    return item as string;
  });
}

const dnsLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Why a preview domain pattern is unacceptable, or undefined when it is fine. */
function previewDomainProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string; got ${describe(value)}`;
  if (value !== value.toLowerCase()) return `must be lower case; got ${describe(value)}`;
  const wildcard = value.startsWith('*.');
  const host = wildcard ? value.slice(2) : value;
  const labels = host.split('.');
  if (host.length === 0 || host.length > 253 || !labels.every((label) => dnsLabel.test(label))) {
    return `must be a host name (letters, digits and inner hyphens between dots), optionally after "*."; got ${describe(value)}`;
  }
  if (wildcard && labels.length < 2) return `must not cover a whole top-level domain; got ${describe(value)}`;
  return undefined;
}

/** Whether a URL's host is covered by a preview domain pattern. */
export function previewDomainMatches(pattern: string, hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

function readAction(fields: Record<string, unknown>, at: string): Action {
  const result = validateAction(fields.action, `${at}.action`);
  if (!result.ok) throw new InvalidIntegration(result.parameter, result.description);
  return result.value;
}

function readName(fields: Record<string, unknown>, at: string): string {
  const name = readOptionalText(fields, 'name', at, maxIntegrationNameLength);
  if (name === undefined) throw new InvalidIntegration(`${at}.name`, `${at}.name is required: the label people see`);
  return name;
}

function readOptionalText(fields: Record<string, unknown>, key: string, at: string, maxLength: number): string | undefined {
  const value = fields[key];
  if (absent(value)) return undefined;
  const path = `${at}.${key}`;
  if (typeof value !== 'string' || value.trim() === '') throw new InvalidIntegration(path, `${path} must be a non-empty string; got ${describe(value)}`);
  if (value.length > maxLength) throw new InvalidIntegration(path, `${path} is ${value.length} characters long; the limit is ${maxLength}`);
  return value;
}

function expectObject(value: unknown, at: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidIntegration(at, `${at} must be an object; got ${describe(value)}`);
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw new InvalidIntegration(at, `${at} has the unknown field ${JSON.stringify(unknown[0])}; allowed fields are ${allowed.join(', ')}`);
  }
  return value as Record<string, unknown>;
}

function expectArray(value: unknown, at: string, maxItems: number): unknown[] {
  if (!Array.isArray(value)) throw new InvalidIntegration(at, `${at} must be an array; got ${describe(value)}`);
  if (value.length > maxItems) throw new InvalidIntegration(at, `${at} has ${value.length} entries; the limit is ${maxItems}`);
  return value;
}

/** `null` counts as absent: SDKs often send unset optional fields as null. */
const absent = (value: unknown): value is null | undefined => value === null || value === undefined;

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : `a ${typeof value}`;
}

/**
 * The app and command a person's `/name` reaches: among the apps they installed and have not disabled,
 * in their team, not disabled by a team admin. When two apps define the same name, the one installed
 * first wins, so a new install never takes a command over.
 */
export async function findSlashCommand(
  db: Db,
  teamId: string,
  userId: string,
  name: string,
): Promise<{ app: AppsTable; command: SlashCommand } | undefined> {
  const apps = await db
    .selectFrom('apps as a')
    .innerJoin('installs as i', 'i.app_id', 'a.id')
    .selectAll('a')
    .where('a.team_id', '=', teamId)
    .where('i.user_id', '=', userId)
    .where(usableInstalledApp)
    .orderBy('i.created_at')
    .orderBy('a.id')
    .execute();
  for (const app of apps) {
    const command = readIntegrations(app).slashCommands.find((candidate) => candidate.name === name);
    if (command) return { app, command };
  }
  return undefined;
}

/**
 * The apps that may preview a link the sender posted: those the sender installed and has not disabled,
 * not disabled by a team admin, whose preview domains cover `hostname`; oldest app first. Nobody else's
 * app is told about the link, which may have been posted in a private channel or a direct chat.
 */
export async function appsForPreviewDomain(db: Db, senderId: string, hostname: string): Promise<AppsTable[]> {
  const apps = await db
    .selectFrom('apps as a')
    .innerJoin('installs as i', 'i.app_id', 'a.id')
    .selectAll('a')
    .where('i.user_id', '=', senderId)
    .where(usableInstalledApp)
    .orderBy('a.created_at')
    .orderBy('a.id')
    .execute();
  return apps.filter((app) => readIntegrations(app).previewDomains.some((pattern) => previewDomainMatches(pattern, hostname)));
}
