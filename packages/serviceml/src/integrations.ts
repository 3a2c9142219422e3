/**
 * Integrations validation (docs/reference/integrations.md): the one check of an app's slash commands,
 * buttons, message action and preview domains, whichever way they arrive (developer API, CLI, a
 * command, the developer dashboard). The result is the stored form: action aliases resolved, URLs
 * trimmed, every list present.
 */

import {
  type Action,
  AppHomeIntegration,
  IntegrationButton,
  integrationButtonKeys,
  Integrations,
  maxIntegrationNameLength,
  maxPreviewDomains,
  maxSlashCommandDescriptionLength,
  maxSlashCommandNameLength,
  maxSlashCommands,
  MessageActionIntegration,
  previewDomainLabel,
  SlashCommand,
  slashCommandNamePattern,
} from '@aviary/protocol';
import { readAction } from './action.js';
import { catchInvalidField, definedOnly, describeValue, expectArray, expectObject, InvalidField, isAbsent, readString, readWebUrl } from './json-fields.js';
import type { FieldResult, JsonObject } from './json-fields.js';

/**
 * Validates a whole integrations object. A failure names the exact path of the one field to fix
 * (`slashCommands[0].action.url`), or `integrations` when the value as a whole is wrong.
 */
export function validateIntegrations(value: unknown): FieldResult<Integrations> {
  return catchInvalidField(() => {
    const object = expectObject(value, 'integrations', Object.keys(Integrations.properties));
    const integrations: Integrations = {
      slashCommands: isAbsent(object.slashCommands) ? [] : readSlashCommands(object.slashCommands),
      previewDomains: isAbsent(object.previewDomains) ? [] : readPreviewDomains(object.previewDomains),
    };
    for (const key of integrationButtonKeys) {
      if (!isAbsent(object[key])) integrations[key] = readButton(object[key], key);
    }
    if (!isAbsent(object.messageAction)) integrations.messageAction = readMessageAction(object.messageAction);
    if (!isAbsent(object.appHome)) integrations.appHome = readAppHome(object.appHome);
    return integrations;
  });
}

function readSlashCommands(value: unknown): SlashCommand[] {
  const seen = new Set<string>();
  return expectArray(value, 'slashCommands', maxSlashCommands, 'slash command').map((item, index) => {
    const at = `slashCommands[${index}]`;
    const fields = expectObject(item, at, Object.keys(SlashCommand.properties));
    const name = readSlashCommandName(fields, at);
    if (seen.has(name)) throw new InvalidField(`${at}.name`, `${at}.name "${name}" is used by an earlier command; each command needs its own name`);
    seen.add(name);
    const description = readString(fields, 'description', at, { maxLength: maxSlashCommandDescriptionLength, nonEmpty: true });
    return definedOnly<SlashCommand>({ name, description, action: readIntegrationAction(fields, at) });
  });
}

function readSlashCommandName(fields: JsonObject, at: string): string {
  const name = fields.name;
  if (typeof name === 'string' && slashCommandNamePattern.test(name) && name.length <= maxSlashCommandNameLength) return name;
  throw new InvalidField(
    `${at}.name`,
    `${at}.name must be 1 to ${maxSlashCommandNameLength} letters, digits, _ or -, starting with a letter or digit, without the slash; got ${describeValue(name)}`,
  );
}

function readButton(value: unknown, at: string): IntegrationButton {
  const fields = expectObject(value, at, Object.keys(IntegrationButton.properties));
  return definedOnly<IntegrationButton>({ name: readName(fields, at), icon: readWebUrl(fields, 'icon', at), action: readIntegrationAction(fields, at) });
}

function readMessageAction(value: unknown): MessageActionIntegration {
  const at = 'messageAction';
  const fields = expectObject(value, at, Object.keys(MessageActionIntegration.properties));
  return { name: readName(fields, at), action: readIntegrationAction(fields, at) };
}

/** The home tab: the widget's URL, which must be http(s). */
function readAppHome(value: unknown): AppHomeIntegration {
  const fields = expectObject(value, 'appHome', Object.keys(AppHomeIntegration.properties));
  return { url: readWebUrl(fields, 'url', 'appHome', true)! };
}

/** The label people see on a button or in the message menu. */
function readName(fields: JsonObject, at: string): string {
  if (isAbsent(fields.name)) throw new InvalidField(`${at}.name`, `${at}.name is required: the label people see`);
  return readString(fields, 'name', at, { maxLength: maxIntegrationNameLength, required: true })!;
}

function readIntegrationAction(fields: JsonObject, at: string): Action {
  return readAction(fields.action, `${at}.action`);
}

function readPreviewDomains(value: unknown): string[] {
  const seen = new Set<string>();
  return expectArray(value, 'previewDomains', maxPreviewDomains, 'preview domain').map((item, index) => {
    const at = `previewDomains[${index}]`;
    const problem = previewDomainProblem(item);
    if (problem !== undefined) throw new InvalidField(at, `${at} ${problem}; write example.com or *.example.com`);
    const domain = item as string;
    if (seen.has(domain)) throw new InvalidField(at, `${at} "${domain}" is listed twice`);
    seen.add(domain);
    return domain;
  });
}

const dnsLabel = new RegExp(`^${previewDomainLabel}$`);

/** Why a preview domain pattern is unacceptable, or undefined when it is fine. */
function previewDomainProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string; got ${describeValue(value)}`;
  if (value !== value.toLowerCase()) return `must be lower case; got ${describeValue(value)}`;
  const wildcard = value.startsWith('*.');
  const host = wildcard ? value.slice(2) : value;
  const labels = host.split('.');
  if (host.length === 0 || host.length > 253 || !labels.every((label) => dnsLabel.test(label))) {
    return `must be a host name (letters, digits and inner hyphens between dots), optionally after "*."; got ${describeValue(value)}`;
  }
  if (wildcard && labels.length < 2) return `must not cover a whole top-level domain; got ${describeValue(value)}`;
  return undefined;
}
