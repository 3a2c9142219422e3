import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { ValueError } from '@sinclair/typebox/errors';
import type { ServerContext } from '../context.js';
import { ApiError } from './errors.js';

const checkers = new WeakMap<TSchema, TypeCheck<TSchema>>();

/**
 * With `config.checkResults` (on in tests): a handler's result that does not match the schema its
 * method or route promises is a 500 and an error in the log, so that every test that calls a handler
 * also checks what it answers. Off in production, where the schemas cost time and the types hold already.
 */
export function checkResult(ctx: ServerContext, schema: TSchema, result: unknown, what: string, requestId: string): void {
  if (!ctx.config.checkResults) return;
  let checker = checkers.get(schema);
  if (!checker) {
    checker = TypeCompiler.Compile(schema);
    checkers.set(schema, checker);
  }
  if (checker.Check(result)) return;
  const mismatches = [...checker.Errors(result)].slice(0, 5).map(describeMismatch);
  ctx.log.error({ requestId, what, mismatches }, 'a result does not match its schema');
  throw new ApiError('InternalServerError', `The result of ${what} does not match its schema: ${mismatches.join('; ')}.`, { requestId });
}

/** Where and how a result differs; for a union, how it differs from each of its variants. */
function describeMismatch(error: ValueError): string {
  const variants = error.errors.map((variant, index) => {
    const first = variant.First();
    return first ? `variant ${index}: ${describeMismatch(first)}` : `variant ${index}: ?`;
  });
  return `${error.path || '/'}: ${error.message}${variants.length > 0 ? ` (${variants.join('; ')})` : ''}`;
}
