import type { Static, TObject, TSchema } from '@sinclair/typebox';
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

export function defineMethod<const N extends string, P extends TObject, R extends TSchema>(
  definition: MethodDefinition<P, R> & { name: N },
): MethodDefinition<P, R> & { name: N } {
  return definition;
}

/**
 * The parameters a caller passes; `token` is not among them (it travels beside them). `Ids` is `[]` for
 * plain string ids, `[BrandedIds]` for the SDK's branded ones (ids.ts).
 */
export type ParamsOf<M, Ids extends unknown[] = []> = M extends MethodDefinition<infer P, TSchema> ? Static<P, Ids> : never;
export type ResultOf<M, Ids extends unknown[] = []> = M extends MethodDefinition<TObject, infer R> ? Static<R, Ids> : never;
