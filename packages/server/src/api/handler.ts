import type { MethodDefinition } from '@aviary/protocol';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { ServerContext } from '../context.js';
import type { AnonymousCaller, Caller, PersonCaller } from './caller.js';

/**
 * The caller a method's handler receives: an address for a method anyone calls (without credentials), a
 * person for a method only people call, else any caller.
 */
export type CallerOf<M> = M extends { callers: readonly 'anyone'[] } ? AnonymousCaller : M extends { callers: readonly 'session'[] } ? PersonCaller : Caller;

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
