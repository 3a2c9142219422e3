import { Type } from '@sinclair/typebox';
import { toJsonSchema } from './jsonSchema.js';
import { MessageUid } from './ids.js';
import { AttachmentInput } from './models.js';
import { errorResponses, refs, type OpenApiOperation } from './openapiParts.js';

/**
 * An incoming webhook's URL (POST /hooks/:id/:secret, docs/reference/webhooks.md) in the whole OpenAPI
 * document: the URL is its own credential. Aviary's payload is described field by field; a Slack-shaped
 * one (blocks, mrkdwn, Slack attachments…) is accepted too and answered `ok` as text.
 */
const IncomingWebhookPayload = Type.Object(
  {
    text: Type.String({ maxLength: 40_000, description: 'the message (plain in Aviary’s dialect, mrkdwn in Slack’s)' }),
    serviceml: Type.Optional(Type.String({ description: 'a ServiceML document (Aviary’s dialect)' })),
    attachments: Type.Optional(Type.Array(AttachmentInput, { description: 'at most one Aviary Attachment, or Slack attachments' })),
    blocks: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 50, description: 'Slack blocks: section, header, divider, context, actions, image' })),
  },
  { description: 'Aviary’s payload {text, serviceml?, attachments?}, or a Slack-shaped one (docs/reference/webhooks.md)' },
);

export const incomingWebhookPaths: Record<string, { post: OpenApiOperation }> = {
  '/hooks/{id}/{secret}': {
    post: {
      operationId: 'incomingWebhook',
      summary: 'Post to the webhook’s channel as its maker, named as the integration (an Aviary extension).',
      tags: ['webhooks'],
      parameters: [
        { name: 'id', in: 'path', required: true, description: 'the webhook id (wh_…)', schema: { type: 'string' } },
        { name: 'secret', in: 'path', required: true, description: 'the secret webhooks.create answered once', schema: { type: 'string' } },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: toJsonSchema(IncomingWebhookPayload) },
          'application/x-www-form-urlencoded': {
            schema: { type: 'object', properties: { payload: { type: 'string', description: 'the same JSON, Slack’s form style' } }, required: ['payload'] },
          },
        },
      },
      responses: {
        '200': {
          description: 'Posted: `ok` as text for a Slack-shaped payload, {ok, uid} for Aviary’s',
          headers: refs(['X-Request-Id']),
          content: {
            'application/json': { schema: toJsonSchema(Type.Object({ ok: Type.Literal(true), uid: MessageUid })) },
            'text/plain': { schema: { type: 'string', const: 'ok' } },
          },
        },
        ...errorResponses(['InvalidRequestData', 'MissingParameter', 'InvalidParameter', 'PermissionDenied', 'UnknownWebhook', 'RequestTooLarge', 'TooManyRequests']),
      },
      security: [],
    },
  },
};
