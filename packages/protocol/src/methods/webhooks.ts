import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { AppId, ChannelId, UserId } from '../ids.js';
import { closedObject, HttpUrlOf, NonEmptyString } from '../params.js';

/**
 * Incoming webhooks, an Aviary extension (docs/reference/webhooks.md): a secret URL that posts to one
 * channel, as whoever made the webhook, under the integration's name.
 */
export const WebhookId = Type.String({ pattern: '^wh_[a-z2-7]{16}$', description: 'a webhook id (wh_ followed by 16 base32 characters)' });

export const Webhook = closedObject({
  id: WebhookId,
  channel: ChannelId,
  name: Type.String({ description: 'the integration’s name, shown on its messages' }),
  iconUrl: Type.Optional(Type.String({ description: 'the integration’s icon, shown on its messages' })),
  createdBy: UserId,
  appId: Type.Optional(AppId('the app whose token made the webhook: it posts as that app')),
  onBehalfOf: Type.Optional(UserId),
  createdAt: Type.Integer({ description: 'milliseconds since the epoch' }),
  lastUsedAt: Type.Optional(Type.Integer({ description: 'when it last posted, milliseconds since the epoch' })),
});

export type Webhook = Static<typeof Webhook>;

const webhookFields = {
  channel: ChannelId,
  name: NonEmptyString(80, 'the integration’s name, shown on every message it posts'),
  iconUrl: Type.Optional(HttpUrlOf('an http or https URL of the integration’s icon')),
};

export const create = defineMethod({
  name: 'webhooks.create',
  summary:
    'An Aviary extension: make an incoming webhook for a channel the caller may post to. The answer holds its secret URL, ' +
    'shown this once; a POST to it posts to the channel as the caller (through the token’s app), named as the integration.',
  callers: ['token', 'session'],
  rateClass: 'channel',
  params: Type.Object({
    ...webhookFields,
    onBehalfOf: Type.Optional(UserId),
  }),
  sessionParams: closedObject(webhookFields),
  result: closedObject({
    webhook: Webhook,
    url: Type.String({ description: 'the secret URL to POST to, absolute when the server knows its public URL (AVIARY_PUBLIC_URL): keep it secret, it is shown only now' }),
    path: Type.String({ description: 'the same URL’s path, /hooks/<id>/<secret>' }),
  }),
  errors: ['UnknownRecipient'],
});

export const list = defineMethod({
  name: 'webhooks.list',
  summary:
    'An Aviary extension: the live webhooks of a channel the caller is a member of, or (without `channel`) those the caller made ' +
    '(with a token: through its app). Never their secret URLs.',
  callers: ['token', 'session'],
  rateClass: 'read',
  params: Type.Object({ channel: Type.Optional(ChannelId) }),
  result: closedObject({ webhooks: Type.Array(Webhook) }),
  errors: ['UnknownChannel'],
});

export const revoke = defineMethod({
  name: 'webhooks.revoke',
  summary:
    'An Aviary extension: revoke a webhook; its URL answers 404 from now on. Its maker may (with a token: through the same app), ' +
    'and so may a moderator of its channel or a team admin.',
  callers: ['token', 'session'],
  rateClass: 'channel',
  params: Type.Object({ webhook: WebhookId }),
  result: closedObject({}),
  errors: ['UnknownWebhook', 'PermissionDenied'],
});
