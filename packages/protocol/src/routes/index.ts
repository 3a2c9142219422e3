import type { RouteDefinition } from './define.js';
import * as developerApps from './developer/apps.js';
import * as developerEvents from './developer/events.js';
import * as responses from './responses.js';
import * as session from './session.js';

/** The developer API (/api/developer): what the developer dashboard calls. */
export const developerRoutes = { ...developerApps, ...developerEvents } as const;

/** Signing in and out (/api/session). */
export const sessionRoutes = session;

/** Deferred replies to client.* events (/api/respond/:token): the responseUrl's token is the credential. */
export const responseRoutes = { respond: responses.respond } as const;

/** A group of routes, by the name its typed client calls them by. */
export type RouteGroup = Readonly<Record<string, RouteDefinition>>;

type AllRoutes = typeof developerRoutes & typeof sessionRoutes & typeof responseRoutes;
export type RouteName = AllRoutes[keyof AllRoutes]['name'];

/** Every route, by its name (`session.signIn`). */
export const routesByName: ReadonlyMap<string, RouteDefinition> = new Map<string, RouteDefinition>(
  [developerRoutes, sessionRoutes, responseRoutes].flatMap((group) => Object.values(group).map((route) => [route.name, route] as const)),
);
