import type { FastifyInstance } from 'fastify';

/**
 * Every "METHOD /path" the server registers, read from Fastify's own route tree, so that a route added
 * later shows up here without anyone listing it. HEAD is left out: Fastify adds it beside every GET.
 */
export function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const pathAtDepth: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    // "│   ├── /:id/install (POST)": four characters of tree per level, then the path and its methods.
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    const path = (depth > 0 ? pathAtDepth[depth - 1] : '') + match[2];
    pathAtDepth[depth] = path;
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes.sort();
}
