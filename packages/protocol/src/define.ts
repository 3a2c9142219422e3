import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { ErrorCode } from './errors.js';

/** How a method is rate limited (docs/reference/methods.md "Rate limits"). */
export type RateClass = 'message' | 'read' | 'channel';

export interface MethodDefinition<P extends TObject = TObject, R extends TSchema = TSchema> {
  name: string;
  summary: string;
  rateClass: RateClass;
  params: P;
  result: R;
  /** The method's own error codes, beyond the common ones. */
  errors: readonly ErrorCode[];
}

/**
 * A method's definition as written: a method without parameters may leave `params` out, and one
 * without errors of its own `errors`.
 */
export type MethodInput<P extends TObject, R extends TSchema> = Omit<MethodDefinition<P, R>, 'params' | 'errors'> &
  Partial<Pick<MethodDefinition<P, R>, 'params' | 'errors'>>;

export function defineMethod<const N extends string, R extends TSchema, P extends TObject = TObject<{}>>(
  definition: MethodInput<P, R> & { name: N },
): MethodDefinition<P, R> & { name: N } {
  return { params: Type.Object({}) as TObject as P, errors: [], ...definition };
}

/**
 * The parameters a caller passes; `token` is not among them (it travels beside them). `Ids` is `[]` for
 * plain string ids, `[BrandedIds]` for the SDK's branded ones (ids.ts).
 */
export type ParamsOf<M, Ids extends unknown[] = []> = M extends MethodDefinition<infer P, TSchema> ? Static<P, Ids> : never;
export type ResultOf<M, Ids extends unknown[] = []> = M extends MethodDefinition<TObject, infer R> ? Static<R, Ids> : never;
