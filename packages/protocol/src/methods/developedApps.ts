/**
 * Apps as their developer manages them (the developer dashboard, scripts): create, read, change, delete;
 * their secret, bot and integrations. A team admin of the app's team may read it (without its secret),
 * rename, describe and delete it; where an app's events and tokens go, and its credentials, are its
 * developer's alone. An app may call those that act on itself with its own secret
 * (docs/reference/methods.md "Who may call"): the secret as `Authorization: Bearer`, the app as `appId`.
 */
import { Type } from '@sinclair/typebox';
import { AppFieldChanges, IntegrationsInput, NewAppFields } from '../appFields.js';
import { defineMethod } from '../define.js';
import { Integrations } from '../integrations.js';
import { closedObject } from '../params.js';
import { AppIdParam } from './fields.js';
import { BotCredentials, DeveloperApp } from './developerModels.js';

const oneApp = closedObject({ app: DeveloperApp });
const onApp = closedObject({ appId: AppIdParam });
/** What the app itself, with its secret, may do too. */
const developerOrApp = ['session', 'appSecret'] as const;
/** A change to the app only its developer (or the app itself) may make. */
const developerChange = { callers: developerOrApp, rateClass: 'channel', params: onApp, errors: ['UnknownApp', 'PermissionDenied'] } as const;

export const create = defineMethod({
  name: 'apps.create',
  summary: 'Create an app in the person’s team, with the person as its developer; the answer carries its secret.',
  callers: ['session'],
  rateClass: 'channel',
  params: NewAppFields,
  result: oneApp,
  errors: ['PermissionDenied'],
});

export const listDeveloped = defineMethod({
  name: 'apps.listDeveloped',
  summary: 'The apps the person develops, oldest first, each with its secret.',
  callers: ['session'],
  rateClass: 'read',
  result: closedObject({ apps: Type.Array(DeveloperApp) }),
});

export const getInfo = defineMethod({
  name: 'apps.getInfo',
  summary: 'One app the person develops or administers, or the app calling with its secret (the secret shown to its developer and the app only).',
  callers: developerOrApp,
  rateClass: 'read',
  params: onApp,
  result: oneApp,
  errors: ['UnknownApp'],
});

export const update = defineMethod({
  name: 'apps.update',
  summary: 'Change the fields given; the others stay. Only the developer (or the app) may change where the app’s events and tokens go.',
  callers: developerOrApp,
  rateClass: 'channel',
  params: closedObject({ appId: AppIdParam, ...AppFieldChanges.properties }),
  result: oneApp,
  errors: ['UnknownApp', 'PermissionDenied'],
});

export const remove = defineMethod({
  name: 'apps.delete',
  summary: 'Delete the app with its installs, tokens and event history; its bot is deactivated. Its developer or a team admin.',
  callers: ['session'],
  rateClass: 'channel',
  params: onApp,
  result: closedObject({ deleted: Type.Literal(true) }),
  errors: ['UnknownApp'],
});

export const setIntegrations = defineMethod({
  ...developerChange,
  name: 'apps.setIntegrations',
  summary: 'Replace the app’s integrations with `integrations`, the whole integrations object ({} removes every one). Developer only.',
  params: closedObject({ appId: AppIdParam, integrations: IntegrationsInput }),
  result: closedObject({ integrations: Integrations }),
});

export const rotateSecret = defineMethod({
  ...developerChange,
  name: 'apps.rotateSecret',
  summary:
    'Rotate the app secret: events are signed with the new one and, until previousSecretUntil, also with the previous one in a second header. Calls with the secret take the new one at once. Developer only.',
  result: closedObject({
    secret: Type.String(),
    previousSecretUntil: Type.Integer({ description: 'until when (ms since the epoch) events also carry a token signed with the previous secret' }),
  }),
});

export const enableBot = defineMethod({
  ...developerChange,
  name: 'apps.enableBot',
  summary: 'Enable the app’s bot and issue it a token; calling again issues a new one, and the old one stops working. Developer only.',
  result: BotCredentials,
});

export const regenerateBotToken = defineMethod({
  ...developerChange,
  name: 'apps.regenerateBotToken',
  summary: 'Issue the bot a new token; the old one stops working. Developer only.',
  result: BotCredentials,
  errors: [...developerChange.errors, 'BotNotEnabled'],
});
