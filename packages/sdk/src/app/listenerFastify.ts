/**
 * The listener as a Fastify plugin. Fastify's own types are not imported: an app without Fastify must
 * still type-check against the SDK's declarations, so these are the few members the plugin uses, which
 * a real Fastify instance has.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { EventRequest, ListenerAnswer } from './listenerHttp.js';

export interface FastifyListenerOptions {
  /** Where the plugin registers its POST route (default '/'). */
  path?: string;
}

export interface FastifyReplyLike {
  code(statusCode: number): FastifyReplyLike;
  headers(values: Record<string, string>): FastifyReplyLike;
  send(payload?: unknown): FastifyReplyLike;
}

export interface FastifyInstanceLike {
  removeAllContentTypeParsers(): unknown;
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer'; bodyLimit: number },
    parser: (request: unknown, body: Buffer, done: (error: Error | null, body?: Buffer) => void) => void,
  ): unknown;
  setErrorHandler(handler: (error: { statusCode?: number }, request: unknown, reply: FastifyReplyLike) => void): unknown;
  post(path: string, handler: (request: { headers: IncomingHttpHeaders; body: unknown }, reply: FastifyReplyLike) => Promise<unknown>): unknown;
}

/** `fastify.register(listener.fastify, { path })`. */
export type FastifyListenerPlugin = (instance: FastifyInstanceLike, options: FastifyListenerOptions, done: (error?: Error) => void) => void;

export interface FastifyPluginParts {
  handle(request: EventRequest): Promise<ListenerAnswer>;
  bodyLimit: number;
  /** The answer to a body Fastify refused to read: too large, unreadable, or a failure of its own. */
  answerReadFailure(statusCode: number | undefined): ListenerAnswer;
}

export function fastifyPlugin({ handle, bodyLimit, answerReadFailure }: FastifyPluginParts): FastifyListenerPlugin {
  return (instance, pluginOptions, done) => {
    // Encapsulated: the host app's own parsers and error handler are untouched.
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, raw, parsed) => parsed(null, raw));
    instance.setErrorHandler((error, _request, reply) => {
      const result = answerReadFailure(error.statusCode);
      reply.code(result.status).headers(result.headers).send(result.body);
    });
    instance.post(pluginOptions.path ?? '/', async (request, reply) => {
      const result = await handle({ headers: request.headers, body: (request.body as Uint8Array | undefined) ?? new Uint8Array() });
      return reply.code(result.status).headers(result.headers).send(result.body);
    });
    done();
  };
}
