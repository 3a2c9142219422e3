import type { MethodDefinition } from '@aviary/protocol';
import type { FastifyRequest } from 'fastify';
import { invalidParameter } from './errors.js';
import type { RawParams } from './params.js';

const HEADER = 'idempotency-key';

/**
 * The `Idempotency-Key` header, for a method that declares an idempotency param: the header's value is
 * that param (a body that also names it must name the same). nginx resends a call carrying the header to
 * the next process when the connection failed (deploy/nginx/aviary.conf), so a method without such a
 * param refuses the header before it does anything: the first attempt, had it arrived, refused too.
 */
export function withIdempotencyKey(method: MethodDefinition, request: FastifyRequest, raw: RawParams): RawParams {
  const header = request.headers[HEADER];
  if (header === undefined) return raw;
  const param = method.idempotencyParam;
  if (!param) {
    throw invalidParameter('Idempotency-Key', `${method.name} cannot be made idempotent: leave out the Idempotency-Key header (only calls that take a client id accept it).`);
  }
  const key = Array.isArray(header) ? header.join(',') : header;
  const given = raw[param];
  if (given !== undefined && given !== key) {
    throw invalidParameter(param, `The Idempotency-Key header and the "${param}" parameter differ; send one of them, or the same value in both.`);
  }
  return { ...raw, [param]: key };
}
