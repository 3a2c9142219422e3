import type { RouteDefinition } from './define.js';
import * as responses from './responses.js';
import * as session from './session.js';

/** Signing in and out (/api/session). */
export const sessionRoutes = session;

/** Deferred replies to client.* events (/api/respond/:token): the responseUrl's token is the credential. */
export const responseRoutes = { respond: responses.respond } as const;

/** A group of routes, by the name its typed client calls them by. */
export type RouteGroup = Readonly<Record<string, RouteDefinition>>;

type AllRoutes = typeof sessionRoutes & typeof responseRoutes;
export type RouteName = AllRoutes[keyof AllRoutes]['name'];

/** Every route, by its name (`session.signIn`). */
export const routesByName: ReadonlyMap<string, RouteDefinition> = new Map<string, RouteDefinition>(
  [sessionRoutes, responseRoutes].flatMap((group) => Object.values(group).map((route) => [route.name, route] as const)),
);
