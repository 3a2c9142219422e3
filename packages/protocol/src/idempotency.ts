/**
 * The methods whose calls carry an idempotency param, and its name. The method's definition reads it from
 * here, and a typed client (methodClient.ts) sends the param's value as `Idempotency-Key` without loading
 * the definitions, which keeps the method schemas out of the web client's first script.
 */
export const idempotencyParams = { 'chat.sendMessage': 'id' } as const;

/** The idempotency param of a method, if it has one. */
export function idempotencyParamOf(method: string): string | undefined {
  return Object.hasOwn(idempotencyParams, method) ? idempotencyParams[method as keyof typeof idempotencyParams] : undefined;
}
