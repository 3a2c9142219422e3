import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { webPages } from '@aviary/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pickEncoding } from './contentEncoding.js';
import { ApiError } from './errors.js';
import { HTML_CONTENT_SECURITY_POLICY, isApiPath } from './security/headers.js';

/** Where `vite build` of packages/web writes; the server reads the files, it imports nothing of the web package. */
export const WEB_CLIENT_DIST = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

/**
 * The web client page's policy: the strict one of every page, plus what the client shows of apps, and
 * nothing else. `frame-src http: https:` lets attachment widgets and app widgets (on any origin an app's
 * developer registered) load in iframes; inline `html` attachments are `srcdoc` iframes without
 * `allow-same-origin` or `allow-scripts`, which inherit this policy. `img-src http: https:` shows
 * attachment images and profile images, which live on the apps' servers. `media-src 'self'` plays the
 * video and sound files of messages, served by this server (GET /files/:id). Scripts, styles and
 * connections stay 'self': the page runs only its own built code. docs/security.md explains it.
 */
export const WEB_CLIENT_CONTENT_SECURITY_POLICY = HTML_CONTENT_SECURITY_POLICY.replace("img-src 'self' data:", "img-src 'self' data: http: https:").replace(
  "base-uri 'none'",
  "frame-src http: https:; media-src 'self'; base-uri 'none'",
);

/**
 * What a person's browser gets at an address nothing is served at (a mistyped link): a page saying so,
 * with the way back, rather than the API's JSON. Undefined for anything but a browser opening a page
 * outside the API: that answer stays the API's error.
 */
export function pageNotFound(request: FastifyRequest): string | undefined {
  const opensPage = (request.method === 'GET' || request.method === 'HEAD') && (request.headers.accept ?? '').includes('text/html');
  return opensPage && !isApiPath(request.url) ? NOT_FOUND_PAGE : undefined;
}

const NOT_FOUND_PAGE =
  '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found · Aviary</title></head>' +
  '<body><h1>Nothing here</h1><p>There is no page at this address. <a href="/">Open Aviary</a></p></body></html>\n';

/** Built file names: hashed names from Vite, no directories, no dots at the start. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,200}$/;

const contentTypes: Readonly<Record<string, string>> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/**
 * A built file as the request accepts it: its Brotli or gzip copy written by the build when the browser
 * takes one (Content-Encoding set), else the file itself; undefined when there is no such file. Every
 * answer varies by Accept-Encoding, so that a cache never hands a compressed body to a client that
 * did not ask for it.
 */
async function readBuilt(path: string, request: FastifyRequest, reply: FastifyReply): Promise<Buffer | undefined> {
  reply.header('vary', 'accept-encoding');
  const precompressed = pickEncoding(request.headers['accept-encoding']);
  const encoded = precompressed && (await readFile(path + precompressed.extension).catch(() => undefined));
  if (precompressed && encoded) {
    reply.header('content-encoding', precompressed.encoding);
    return encoded;
  }
  return readFile(path).catch(() => undefined);
}

/**
 * Serves the built web client: index.html at the client's own paths (never cached, so a new build is
 * picked up at once) and the hashed assets under /assets/ (cached for a year: a new build has new names),
 * each precompressed when the browser accepts Brotli or gzip.
 */
export function registerWebClientRoutes(app: FastifyInstance, dist = WEB_CLIENT_DIST): void {
  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const page = await readBuilt(join(dist, 'index.html'), request, reply);
    if (!page) throw new ApiError('ServiceUnavailable', 'The web client is not built: run `npm run build -w packages/web` (npm start and npm test do it).');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('content-security-policy', WEB_CLIENT_CONTENT_SECURITY_POLICY).send(page);
  };
  // The paths the client routes itself (the protocol's webPages): each answers index.html.
  for (const path of Object.values(webPages)) app.get(path, sendPage);

  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const { name } = request.params;
    const type = contentTypes[extname(name)];
    const file = ASSET_NAME.test(name) && type ? await readBuilt(join(dist, 'assets', name), request, reply) : undefined;
    if (!file) throw new ApiError('NoSuchMethod', `No web client asset is named ${name.slice(0, 200)}.`);
    return reply.type(type!).header('cache-control', 'public, max-age=31536000, immutable').send(file);
  });
}
