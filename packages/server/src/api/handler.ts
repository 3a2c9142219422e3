import type { CallerKind, MethodDefinition } from '@aviary/protocol';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { ServerContext } from '../context.js';
import type { AnonymousCaller, AppSecretCaller, PersonCaller, TokenCaller } from './caller.js';

interface CallerByKind {
  token: TokenCaller;
  session: PersonCaller;
  appSecret: AppSecretCaller;
  anyone: AnonymousCaller;
}

/**
 * The caller a method's handler receives: one of the kinds the method declares (a person for a method
 * only people call, an address for a method anyone calls, without credentials).
 */
export type CallerOf<M> = M extends { callers: readonly (infer K extends CallerKind)[] } ? CallerByKind[K] : never;

export interface MethodHandler<M extends MethodDefinition = MethodDefinition> {
  method: M;
  handle(params: Static<M['params']>, caller: CallerOf<M>, ctx: ServerContext): Promise<Static<M['result']>>;
}

/** Binds a method's definition (from @aviary/protocol) to the code that carries it out. */
export function defineHandler<P extends TObject, R extends TSchema, M extends MethodDefinition<P, R>>(
  method: M,
  handle: (params: Static<M['params']>, caller: CallerOf<M>, ctx: ServerContext) => Promise<Static<M['result']>>,
): MethodHandler<M> {
  return { method, handle };
}
