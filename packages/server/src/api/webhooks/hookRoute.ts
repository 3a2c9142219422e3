import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import { dialectOf, postThroughWebhook, readPayload } from '../../core/webhooks/post.js';
import { findWebhookBySecret } from '../../core/webhooks/webhooks.js';
import { UNREADABLE_BODY } from '../dispatcher.js';
import { ApiError, invalidParameter, missingParameter } from '../errors.js';

/** The largest body a webhook takes; a larger one is 413 before it is read. */
export const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;

const ID_SHAPE = /^wh_[a-z2-7]{16}$/;
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const unknownWebhook = () => new ApiError('UnknownWebhook', 'No webhook answers at this URL: it was never made, or it was revoked.');

/**
 * POST /hooks/:id/:secret, an incoming webhook's URL (docs/reference/webhooks.md): JSON, or a form whose
 * `payload` field is the JSON (Slack's form style). Slack-shaped payloads are answered `ok` as text, as
 * Slack answers; Aviary's own with JSON `{ok: true, uid}`. Refusals are the API's JSON errors.
 */
export function registerWebhookRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post<{ Params: { id: string; secret: string } }>(
    '/hooks/:id/:secret',
    {
      onRequest: (request, _reply, done) => {
        const length = Number(request.headers['content-length'] ?? 0);
        done(length > WEBHOOK_BODY_LIMIT_BYTES ? tooLarge() : undefined);
      },
    },
    async (request, reply) => answer(ctx, request, reply),
  );
}

async function answer(ctx: ServerContext, request: FastifyRequest<{ Params: { id: string; secret: string } }>, reply: FastifyReply): Promise<FastifyReply> {
  const { id, secret } = request.params;
  const hook = ID_SHAPE.test(id) && SECRET_SHAPE.test(secret) ? await findWebhookBySecret(ctx.db, id, secret) : undefined;
  if (!hook) throw unknownWebhook();
  const decision = await ctx.rateLimits.take(`webhook:${hook.id}`, ctx.config.rateLimits.webhook);
  if (!decision.allowed) {
    throw new ApiError(
      'TooManyRequests',
      `This webhook takes ${describeRule(ctx.config.rateLimits.webhook)}; retry after ${decision.retryAfterSeconds} s.`,
      { retryAfter: decision.retryAfterSeconds },
      { 'retry-after': String(decision.retryAfterSeconds) },
    );
  }
  const payload = payloadOf(request);
  const read = dialectOf(payload);
  // `{text}` alone is both dialects: read as Slack's (mrkdwn, answered ok) unless the caller asks for JSON.
  const wantsJson = /\bapplication\/json\b/.test(request.headers.accept ?? '');
  const dialect = read.textOnly && !wantsJson ? 'slack' : read.dialect;
  const uid = await postThroughWebhook(ctx, hook, readPayload(payload, dialect));
  if (dialect === 'slack') return reply.code(200).type('text/plain; charset=utf-8').send('ok');
  return reply.code(200).type('application/json; charset=utf-8').send({ ok: true, uid });
}

/** The JSON body, or a form's `payload` field read as JSON. */
function payloadOf(request: FastifyRequest): Record<string, unknown> {
  const body: unknown = request.body;
  if (body === UNREADABLE_BODY || body === undefined || body === null || typeof body === 'string') {
    throw new ApiError('InvalidRequestData', 'Send the message as JSON (content-type application/json) or as a form whose payload field is the JSON.');
  }
  const isForm = (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  if (isForm) {
    const form = body as Record<string, unknown>;
    if (typeof form.payload !== 'string' || form.payload === '') throw missingParameter('payload');
    let parsed: unknown;
    try {
      parsed = JSON.parse(form.payload);
    } catch {
      throw invalidParameter('payload', 'payload is not valid JSON.');
    }
    return objectOrRefuse(parsed, 'payload');
  }
  return objectOrRefuse(body, 'body');
}

function objectOrRefuse(value: unknown, parameter: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParameter(parameter, `The ${parameter} must be a JSON object such as {"text": "…"}.`);
  if (JSON.stringify(value).length > WEBHOOK_BODY_LIMIT_BYTES) throw tooLarge();
  return value as Record<string, unknown>;
}

const tooLarge = () => new ApiError('RequestTooLarge', `A webhook takes at most ${WEBHOOK_BODY_LIMIT_BYTES} bytes.`);

const describeRule = (rule: { rate: number; burst: number }): string => `${rule.rate} message(s) a second, ${rule.burst} at once`;
