/**
 * The incoming webhooks an app's tokens made, as its developer sees them (the developer dashboard) or
 * the app with its secret: listed, and revoked. A team admin of the app's team may too.
 */
import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { closedObject } from '../params.js';
import { AppIdParam } from './fields.js';
import { Webhook, WebhookId } from './webhooks.js';

export const listWebhooks = defineMethod({
  name: 'apps.listWebhooks',
  summary: 'An Aviary extension: the live incoming webhooks made through the app (with its user or bot tokens), oldest first; never their secret URLs.',
  callers: ['session', 'appSecret'],
  rateClass: 'read',
  params: closedObject({ appId: AppIdParam }),
  result: closedObject({ webhooks: Type.Array(Webhook) }),
  errors: ['UnknownApp'],
});

export const revokeWebhook = defineMethod({
  name: 'apps.revokeWebhook',
  summary: 'An Aviary extension: revoke one of the webhooks made through the app; its URL answers 404 from now on.',
  callers: ['session', 'appSecret'],
  rateClass: 'channel',
  params: closedObject({ appId: AppIdParam, webhook: WebhookId }),
  result: closedObject({}),
  errors: ['UnknownApp', 'UnknownWebhook', 'PermissionDenied'],
});
