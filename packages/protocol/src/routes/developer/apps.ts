/**
 * Apps as their developer (and a team admin of their team) manage them: create, read, change, delete;
 * their secret, bot and integrations. Where an app's events and tokens go is its developer's alone.
 */
import { Type } from '@sinclair/typebox';
import { AppFieldChanges, IntegrationsInput, NewAppFields } from '../../appFields.js';
import { Integrations } from '../../integrations.js';
import { BotCredentials, DeveloperApp } from '../developerModels.js';
import { defineRoute } from '../define.js';
import { AppIdParam, AppInPath, closedObject, sessionRead } from '../fields.js';

const oneApp = closedObject({ app: DeveloperApp });
const onApp = { callers: ['session'], params: AppInPath } as const;
/** A change to the app only its developer may make. */
const developerChange = { ...onApp, verb: 'POST', errors: ['UnknownApp', 'PermissionDenied'] } as const;

export const createApp = defineRoute({
  name: 'developer.createApp',
  summary: 'Create an app in the person’s team, with the person as its developer; the answer carries its secret.',
  verb: 'POST',
  path: '/api/developer/apps',
  callers: ['session'],
  params: NewAppFields,
  status: 201,
  result: oneApp,
  errors: ['PermissionDenied'],
});

export const listApps = defineRoute({
  ...sessionRead,
  name: 'developer.listApps',
  summary: 'The apps the person develops, oldest first, each with its secret.',
  path: '/api/developer/apps',
  result: closedObject({ apps: Type.Array(DeveloperApp) }),
});

export const getApp = defineRoute({
  ...onApp,
  name: 'developer.getApp',
  summary: 'One app the person develops or administers (its secret for its developer only).',
  verb: 'GET',
  path: '/api/developer/apps/:id',
  result: oneApp,
  errors: ['UnknownApp'],
});

export const updateApp = defineRoute({
  name: 'developer.updateApp',
  summary: 'Change the fields given; the others stay. Only the developer may change where the app’s events and tokens go.',
  verb: 'PATCH',
  path: '/api/developer/apps/:id',
  callers: ['session'],
  params: closedObject({ id: AppIdParam, ...AppFieldChanges.properties }),
  result: oneApp,
  errors: ['UnknownApp', 'PermissionDenied'],
});

export const deleteApp = defineRoute({
  ...onApp,
  name: 'developer.deleteApp',
  summary: 'Delete the app with its installs, tokens and event history; its bot is deactivated.',
  verb: 'DELETE',
  path: '/api/developer/apps/:id',
  result: closedObject({ deleted: Type.Literal(true) }),
  errors: ['UnknownApp'],
});

export const setIntegrations = defineRoute({
  name: 'developer.setIntegrations',
  summary: 'Replace the app’s integrations with the body, the whole integrations object ({} removes every one). Developer only.',
  verb: 'PUT',
  path: '/api/developer/apps/:id/integrations',
  callers: ['session'],
  params: Type.Object({ id: AppIdParam, integrations: IntegrationsInput }),
  bodyParam: 'integrations',
  result: closedObject({ integrations: Integrations }),
  errors: ['UnknownApp', 'PermissionDenied'],
});

export const rotateSecret = defineRoute({
  ...developerChange,
  name: 'developer.rotateSecret',
  summary: 'Rotate the app secret: events are signed with the new one and, until previousSecretUntil, also with the previous one in a second header. Developer only.',
  path: '/api/developer/apps/:id/secret',
  result: closedObject({
    secret: Type.String(),
    previousSecretUntil: Type.Integer({ description: 'until when (ms since the epoch) events also carry a token signed with the previous secret' }),
  }),
});

export const enableBot = defineRoute({
  ...developerChange,
  name: 'developer.enableBot',
  summary: 'Enable the app’s bot and issue it a token; calling again issues a new one, and the old one stops working. Developer only.',
  path: '/api/developer/apps/:id/bot',
  result: BotCredentials,
});

export const regenerateBotToken = defineRoute({
  ...developerChange,
  name: 'developer.regenerateBotToken',
  summary: 'Issue the bot a new token; the old one stops working. Developer only.',
  path: '/api/developer/apps/:id/bot/token',
  result: BotCredentials,
  errors: [...developerChange.errors, 'BotNotEnabled'],
});
