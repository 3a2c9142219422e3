/**
 * An app manifest (`aviary.app.json`): an app's fields as a file, for `aviary app deploy` and
 * `aviary app export` (docs/cli.md). Declarative: deploying it makes the app exactly so, and a field
 * left out is cleared (an empty description, no URL, no integrations, no extra origins). The server's
 * one app-fields check (core/appFields.ts) checks what a schema cannot say: URLs as a browser parses
 * them, integrations and origins in their normal form. docs/app-manifest.schema.json is this schema
 * as plain JSON Schema, kept in step by a test.
 */
import { Type, type Static } from '@sinclair/typebox';
import { flockNamingDescription, maxAllowedOrigins, maxAppDescriptionLength, maxAppNameLength } from './appFields.js';
import { eventSubscriptionsDescription } from './eventSubscriptions.js';
import { Integrations } from './integrations.js';
import { HttpUrlOf } from './params.js';

export const AppManifest = Type.Object(
  {
    $schema: Type.Optional(Type.String({ description: 'where editors find this schema; ignored by aviary' })),
    id: Type.Optional(Type.String({ pattern: '^a:', description: 'the app this manifest is for; without it, deploy matches the app by name and developer' })),
    name: Type.String({ minLength: 1, maxLength: maxAppNameLength, description: `the name people see, 1 to ${maxAppNameLength} characters (trimmed)` }),
    description: Type.Optional(Type.String({ maxLength: maxAppDescriptionLength, description: 'what the app does' })),
    icon: Type.Optional(HttpUrlOf('an http or https URL of its icon')),
    listenerUrl: Type.Optional(HttpUrlOf('the http or https URL its events are POSTed to')),
    configurationUrl: Type.Optional(HttpUrlOf('an http or https URL of its settings page')),
    integrations: Type.Optional(Integrations),
    allowedOrigins: Type.Optional(
      Type.Array(Type.String(), { maxItems: maxAllowedOrigins, description: 'origins such as https://widgets.example that its widget and browser URLs may also lead to' }),
    ),
    flockNaming: Type.Optional(Type.Boolean({ description: flockNamingDescription })),
    eventSubscriptions: Type.Optional(Type.Array(Type.String(), { maxItems: 100, description: eventSubscriptionsDescription })),
  },
  { additionalProperties: false, title: 'Aviary app manifest', description: 'An Aviary app as `aviary app deploy` makes it and `aviary app export` writes it.' },
);

export type AppManifest = Static<typeof AppManifest>;

/** The app fields a manifest sets, in the order `aviary app deploy` reports their changes. */
export const appManifestFields = ['name', 'description', 'icon', 'listenerUrl', 'configurationUrl', 'integrations', 'allowedOrigins', 'flockNaming', 'eventSubscriptions'] as const;
