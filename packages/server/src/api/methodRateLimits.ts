import { chatIdPattern, type MethodDefinition } from '@aviary/protocol';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../context.js';
import type { Caller } from './caller.js';
import { ApiError } from './errors.js';
import type { RawParams } from './params.js';
import type { RateDecision } from './tokenBuckets.js';

/** docs/reference/methods.md "Rate limits": a bucket per token and method; messages also per (token, recipient). */
export function enforceRateLimits(ctx: ServerContext, method: MethodDefinition, caller: Caller, raw: RawParams, reply: FastifyReply): void {
  const rules = ctx.config.rateLimits;
  const methodKey = `${caller.tokenHash}:${method.name}`;
  const decision = ctx.rateLimits.take(methodKey, rules[method.rateClass]);
  setHeaders(reply, decision);
  if (!decision.allowed) throw tooManyRequests(decision, `${method.name} is limited to ${rules[method.rateClass].rate} calls per second per token.`);

  // Limits run before the parameters are checked, so the recipient is only a key when it is a well-formed
  // chat id; any other `to` is refused by the check right after, and must not grow the buckets.
  if (method.rateClass === 'message' && typeof raw.to === 'string' && chatIdPattern.test(raw.to)) {
    const perRecipient = ctx.rateLimits.take(`${caller.tokenHash}:to:${raw.to}`, rules.messagePerRecipient);
    if (!perRecipient.allowed) {
      ctx.rateLimits.refund(methodKey);
      setHeaders(reply, perRecipient);
      throw tooManyRequests(perRecipient, `Messages to one recipient are limited to ${rules.messagePerRecipient.rate} per second per token.`);
    }
  }
}

export function setHeaders(reply: FastifyReply, decision: RateDecision): void {
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
