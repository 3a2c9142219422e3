import * as clientChannels from './client/channels.js';
import * as clientMessages from './client/messages.js';
import type { RouteDefinition } from './define.js';
import * as session from './session.js';

/** The client API (/api/client): what a person's client calls. */
export const clientRoutes = { ...clientMessages, ...clientChannels } as const;

/** Signing in and out (/api/session). */
export const sessionRoutes = session;

/** A group of routes, by the name its typed client calls them by. */
export type RouteGroup = Readonly<Record<string, RouteDefinition>>;

type AllRoutes = typeof clientRoutes & typeof sessionRoutes;
export type RouteName = AllRoutes[keyof AllRoutes]['name'];

/** Every route, by its name (`client.sendMessage`). */
export const routesByName: ReadonlyMap<string, RouteDefinition> = new Map<string, RouteDefinition>(
  [clientRoutes, sessionRoutes].flatMap((group) => Object.values(group).map((route) => [route.name, route] as const)),
);
