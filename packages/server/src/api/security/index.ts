import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { crossSiteGuard } from './crossSite.js';
import { setSecurityHeaders } from './headers.js';

/**
 * The protections every route gets, whoever registers it: cross-site requests with the session cookie
 * are refused before their body is read, and every answer carries the security headers.
 * Callback hooks, not async ones: Fastify would otherwise wait on a promise for every request.
 */
export function registerSecurityHooks(app: FastifyInstance, ctx: ServerContext): void {
  const refuseCrossSite = crossSiteGuard(ctx.config);
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      refuseCrossSite(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    setSecurityHeaders(request, reply);
    done(null, payload);
  });
}
