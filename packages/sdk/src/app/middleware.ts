/**
 * Middleware of the app layer (`app.use`), as Bolt has: each runs around everything after it, in the
 * order registered, for every event, before the handler; for logging, auth checks, tenant lookup.
 * `await next()` runs the rest and resolves with the handler's answer. One that does not call `next`
 * ends the event there: its own return value is the answer (a toast refusing, say), or none. A throw
 * fails the event as a handler's throw does (500, and the server retries what it retries).
 */
export type Middleware<Ctx> = (ctx: Ctx, next: () => Promise<unknown>) => unknown;

export async function runMiddleware<Ctx>(middleware: ReadonlyArray<Middleware<Ctx>>, ctx: Ctx, handler: () => Promise<unknown>): Promise<unknown> {
  // The answer is the handler's, or that of the middleware that ended the chain; what a middleware that
  // called next() returns is not (`await next();` without `return` keeps the answer).
  let answer: unknown;
  const step = async (index: number): Promise<unknown> => {
    const current = middleware[index];
    if (current === undefined) return (answer = await handler());
    let called = false;
    const returned = await current(ctx, () => {
      if (called) return Promise.reject(new Error('next() was called twice by one middleware'));
      called = true;
      return step(index + 1);
    });
    if (!called) answer = returned;
    return answer;
  };
  return step(0);
}
