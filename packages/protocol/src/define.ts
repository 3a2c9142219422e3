import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { ErrorCode } from './errors.js';

/** How an endpoint is rate limited (docs/reference/methods.md "Rate limits"). */
export type RateClass = 'message' | 'read' | 'channel';

/**
 * Who may call an endpoint: `token`, an app's user or bot token; `session`, a signed-in person (the
 * session token as `Authorization: Bearer`, or the session cookie); `appSecret`, an app's secret;
 * `anyone`, no credential at all (docs/reference/methods.md "Who may call").
 */
export type CallerKind = 'token' | 'session' | 'appSecret' | 'anyone';

/**
 * What every endpoint declares, whatever its transport: its name, who may call it, its rate class, its
 * params, its result and its own errors. A method (`defineMethod`) is called at `/v1/<name>`; a route
 * (routes/define.ts) keeps a path of its own.
 */
export interface EndpointDefinition<P extends TObject = TObject, R extends TSchema = TSchema> {
  name: string;
  summary: string;
  callers: readonly CallerKind[];
  rateClass: RateClass;
  params: P;
  result: R;
  /** The endpoint's own error codes, beyond the common ones. */
  errors: readonly ErrorCode[];
  /**
   * The param that makes a repeated call return the first call's result instead of acting again; an
   * `Idempotency-Key` header may carry it (docs/reference/methods.md "Idempotent calls"). A proxy may
   * resend such a call to another process.
   */
  idempotencyParam?: string;
  /**
   * Only a session may call it, never a personal token acting for the person: it manages how the person
   * signs in (sessions, password, personal tokens, sign-in settings).
   */
  sessionOnly?: true;
}

export interface MethodDefinition<P extends TObject = TObject, R extends TSchema = TSchema> extends EndpointDefinition<P, R> {
  /**
   * The params a person's session passes, where they differ from `params`: the same fields without those
   * only an app has (a person sends as themselves). A field it does not declare is refused, not ignored.
   */
  sessionParams?: TObject;
}

/**
 * A method's definition as written: a method without parameters may leave `params` out, and one
 * without errors of its own `errors`.
 */
export type MethodInput<P extends TObject, R extends TSchema> = Omit<MethodDefinition<P, R>, 'params' | 'errors'> &
  Partial<Pick<MethodDefinition<P, R>, 'params' | 'errors'>>;

export function defineMethod<const N extends string, const C extends readonly CallerKind[], R extends TSchema, P extends TObject = TObject<{}>>(
  definition: MethodInput<P, R> & { name: N; callers: C },
): MethodDefinition<P, R> & { name: N; callers: C } {
  return { params: Type.Object({}) as TObject as P, errors: [], ...definition };
}

/**
 * The parameters a caller passes; `token` is not among them (it travels beside them). `Ids` is `[]` for
 * plain string ids, `[BrandedIds]` for the SDK's branded ones (ids.ts).
 */
export type ParamsOf<M, Ids extends unknown[] = []> = M extends MethodDefinition<infer P, TSchema> ? Static<P, Ids> : never;
export type ResultOf<M, Ids extends unknown[] = []> = M extends MethodDefinition<TObject, infer R> ? Static<R, Ids> : never;

/** The params a caller of this kind passes to the method. */
export const paramsFor = (method: MethodDefinition, caller: CallerKind): TObject =>
  (caller === 'session' ? method.sessionParams : undefined) ?? method.params;
