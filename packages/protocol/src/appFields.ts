/**
 * What a developer says about an app (docs/reference/developer-api.md "The app object"), defined once:
 * the developer methods' bodies, the CLI's options and the server's createApp/updateApp all follow these
 * limits. The server checks them with one function (core/appFields.ts), which also checks what a schema
 * cannot say: URLs as a browser parses them, integrations and origins in their normal form.
 */
import { Type, type Static } from '@sinclair/typebox';
import { EventSubscriptionsInput } from './eventSubscriptions.js';
import { checkedByServer, Clearable, emptyIsGiven, HttpUrl } from './params.js';

export const maxAppNameLength = 80;
export const maxAppDescriptionLength = 1000;
export const maxAllowedOrigins = 20;

/** The `flockNaming` field, described once for the developer methods and the manifest. */
export const flockNamingDescription =
  'Flock-compatible naming (docs/flock-compatibility.md): its events and widget URLs also carry Flock’s names, and its calls may use them; off by default';

/** The fields that decide where an app's events and tokens go: its developer's alone to change. */
export const eventRoutingFields = ['listenerUrl', 'configurationUrl', 'integrations', 'allowedOrigins'] as const;

/**
 * Integrations as a developer sends them: checked field by field by the server, which names the exact
 * path of a problem and accepts the action aliases; what it stores and shows is an `Integrations`.
 */
export const IntegrationsInput = Type.Record(Type.String(), Type.Unknown(), {
  ...checkedByServer,
  description: 'the integrations object (docs/reference/integrations.md): slashCommands, launcherButton, chatTabButton, attachmentPickerButton, messageAction, previewDomains',
});

const nameOptions = { minLength: 1, maxLength: maxAppNameLength, description: `the name people see, 1 to ${maxAppNameLength} characters (trimmed)` };

const appFieldSchemas = {
  name: Type.String(nameOptions),
  description: Type.Union([Type.String({ maxLength: maxAppDescriptionLength }), Type.Null()], {
    clearable: true,
    description: `what the app does, up to ${maxAppDescriptionLength} characters; null clears it`,
  }),
  icon: Clearable(HttpUrl, 'an http or https URL of its icon; null or "" clears it', checkedByServer),
  listenerUrl: Clearable(HttpUrl, 'the http or https URL its events are POSTed to; null or "" clears it', checkedByServer),
  configurationUrl: Clearable(HttpUrl, 'an http or https URL of its settings page; null or "" clears it', checkedByServer),
  integrations: IntegrationsInput,
  allowedOrigins: Type.Union([Type.Array(Type.String(), { maxItems: maxAllowedOrigins }), Type.Null()], {
    ...checkedByServer,
    clearable: true,
    description: `up to ${maxAllowedOrigins} origins such as https://widgets.example that its widget and browser URLs may also lead to; null or [] clears the list`,
  }),
  flockNaming: Type.Boolean({ description: flockNamingDescription }),
  eventSubscriptions: EventSubscriptionsInput,
};

export const appFieldNames = Object.keys(appFieldSchemas) as Array<keyof typeof appFieldSchemas>;

const { name, ...otherFields } = appFieldSchemas;
const optionalOtherFields = Type.Partial(Type.Object(otherFields)).properties;

/** A new app's fields: `name` is required. */
export const NewAppFields = Type.Object({ name, ...optionalOtherFields }, { additionalProperties: false });

/** A change to an app: the fields given change, the others stay. */
export const AppFieldChanges = Type.Object({ name: Type.Optional(Type.String({ ...nameOptions, ...emptyIsGiven })), ...optionalOtherFields }, { additionalProperties: false });

export type NewAppFields = Static<typeof NewAppFields>;
export type AppFieldChanges = Static<typeof AppFieldChanges>;
