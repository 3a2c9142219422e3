import { chatIdPattern, type MethodDefinition } from '@aviary/protocol';
import type { FastifyReply } from 'fastify';
import type { RateRule } from '../config.js';
import type { ServerContext } from '../context.js';
import type { Caller } from './caller.js';
import { ApiError } from './errors.js';
import type { RawParams } from './params.js';
import type { RateDecision } from './tokenBuckets.js';

/**
 * docs/reference/methods.md "Rate limits": a bucket per token and method, messages also per (token,
 * recipient); a person's sessions share a budget of their own, per person and method (and recipient);
 * an app calling with its secret one per app and method.
 */
export async function enforceRateLimits(ctx: ServerContext, method: MethodDefinition, caller: Caller, raw: RawParams, reply: FastifyReply): Promise<void> {
  const rule = ctx.config.rateLimits[method.rateClass];
  const [owner, per] = budgetOf(caller);
  await takeRateLimits(ctx, reply, {
    key: `${owner}:${method.name}`,
    rule,
    limited: `${method.name} is limited to ${rule.rate} calls per second per ${per}.`,
    ...(method.rateClass === 'message' ? { message: { owner, to: raw.to, per } } : {}),
  });
}

function budgetOf(caller: Caller): [owner: string, per: 'token' | 'person' | 'app'] {
  if (caller.kind === 'person') return [`session:${caller.user.id}`, 'person'];
  if (caller.kind === 'appSecret') return [`secret:${caller.appId}`, 'app'];
  return [caller.tokenHash, 'token'];
}

/** One limited call: its own bucket and, for a message, whose per-recipient bucket it also takes from. */
export interface LimitedCall {
  key: string;
  rule: RateRule;
  /** What the 429 says is limited. */
  limited: string;
  message?: { owner: string; to: unknown; per: 'token' | 'person' | 'app' };
}

/**
 * Takes from a call's bucket and, for a message, from the (owner, recipient) bucket too, giving the first
 * back when the second refuses; sets the X-RateLimit-* headers and throws TooManyRequests. Limits run
 * before the parameters are checked, so the recipient is only a key when it is a well-formed chat id: any
 * other `to` is refused by the check right after, and must not grow the buckets.
 */
export async function takeRateLimits(ctx: ServerContext, reply: FastifyReply, call: LimitedCall): Promise<void> {
  const decision = await ctx.rateLimits.take(call.key, call.rule);
  setHeaders(reply, decision);
  if (!decision.allowed) throw tooManyRequests(decision, call.limited);

  const { message } = call;
  if (!message || typeof message.to !== 'string' || !chatIdPattern.test(message.to)) return;
  const rule = ctx.config.rateLimits.messagePerRecipient;
  const perRecipient = await ctx.rateLimits.take(`${message.owner}:to:${message.to}`, rule);
  if (!perRecipient.allowed) {
    await ctx.rateLimits.refund(call.key, call.rule);
    setHeaders(reply, perRecipient);
    throw tooManyRequests(perRecipient, `Messages to one recipient are limited to ${rule.rate} per second per ${message.per}.`);
  }
}

function setHeaders(reply: FastifyReply, decision: RateDecision): void {
  reply.header('x-ratelimit-limit', decision.limit);
  reply.header('x-ratelimit-remaining', decision.remaining);
  reply.header('x-ratelimit-reset', decision.resetSeconds);
}

export function tooManyRequests(decision: RateDecision, why: string): ApiError {
  return new ApiError(
    'TooManyRequests',
    `${why} Retry after ${decision.retryAfterSeconds} s.`,
    { retryAfter: decision.retryAfterSeconds },
    { 'retry-after': String(decision.retryAfterSeconds) },
  );
}
