/**
 * An app's integrations (docs/reference/integrations.md): how people reach it from the client. This is the stored and
 * presented form, as the one validation (`validateIntegrations` of @aviary/serviceml) leaves it: action
 * aliases resolved, URLs trimmed, every list present.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Action } from './attachment.js';
import { HttpUrl } from './params.js';

export const maxSlashCommands = 50;
export const maxSlashCommandNameLength = 32;
export const maxPreviewDomains = 50;
export const maxIntegrationNameLength = 80;
export const maxSlashCommandDescriptionLength = 300;

/** Letters, digits, `_` and `-`, starting with a letter or digit (docs/reference/integrations.md). */
export const slashCommandNamePattern = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

const IntegrationName = Type.String({ minLength: 1, maxLength: maxIntegrationNameLength, description: 'the label people see' });

export const SlashCommand = Type.Object(
  {
    name: Type.String({ pattern: slashCommandNamePattern.source, maxLength: maxSlashCommandNameLength, description: 'without the slash' }),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: maxSlashCommandDescriptionLength })),
    action: Action,
  },
  { additionalProperties: false },
);

export const IntegrationButton = Type.Object(
  { name: IntegrationName, icon: Type.Optional(HttpUrl), action: Action },
  { additionalProperties: false },
);

/**
 * An Aviary extension: the app's home tab, a widget the web client shows when a person opens the app from
 * the directory or the sidebar (docs/reference/integrations.md, "appHome"). Its URL gets the signed
 * `client.pressButton` event with `button: "appHome"`, as any widget's does.
 */
export const AppHomeIntegration = Type.Object({ url: HttpUrl }, { additionalProperties: false });

export const MessageActionIntegration = Type.Object({ name: IntegrationName, action: Action }, { additionalProperties: false });

/** One lower-case DNS label of a preview domain: letters, digits and inner hyphens, at most 63 characters. */
export const previewDomainLabel = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';

/** `example.com` matches that host only; `*.example.com` matches its subdomains (at least two labels after `*.`), not itself. */
export const PreviewDomain = Type.String({
  maxLength: 255,
  pattern: `^(?:\\*\\.(?=${previewDomainLabel}\\.))?(?:${previewDomainLabel}\\.)*${previewDomainLabel}$`,
  description: 'a lower-case host name, or *. followed by one to cover its subdomains',
});

/** The buttons an app may add to the client, by their key in `Integrations`. */
export const integrationButtonKeys = ['launcherButton', 'chatTabButton', 'attachmentPickerButton'] as const;
export type IntegrationButtonKey = (typeof integrationButtonKeys)[number];

export const Integrations = Type.Object(
  {
    slashCommands: Type.Array(SlashCommand, { maxItems: maxSlashCommands, description: 'names are unique' }),
    launcherButton: Type.Optional(IntegrationButton),
    chatTabButton: Type.Optional(IntegrationButton),
    attachmentPickerButton: Type.Optional(IntegrationButton),
    messageAction: Type.Optional(MessageActionIntegration),
    appHome: Type.Optional(AppHomeIntegration),
    previewDomains: Type.Array(PreviewDomain, { maxItems: maxPreviewDomains, description: 'each listed once' }),
  },
  { additionalProperties: false },
);

export type SlashCommand = Static<typeof SlashCommand>;
export type IntegrationButton = Static<typeof IntegrationButton>;
export type MessageActionIntegration = Static<typeof MessageActionIntegration>;
export type AppHomeIntegration = Static<typeof AppHomeIntegration>;
export type Integrations = Static<typeof Integrations>;
