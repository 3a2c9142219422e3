import type { RouteHandler, RouteHandlerTable } from './routeHandler.js';
import { sessionHandlers } from './session/routes/index.js';
import respond from './responses/respond.js';

/**
 * One handler for each route of @aviary/protocol (sessions, deferred replies), under the route's
 * name. A route without a handler here, or a handler filed under another route's name, is a type error
 * (test/api/routeHandlerTable.test.ts shows both and checks the table at run time too).
 */
export const handlersByRoute = { ...sessionHandlers, 'responses.respond': respond } as const satisfies RouteHandlerTable;

/** The same handlers as a list, for registering their routes. */
export const routeHandlers: readonly RouteHandler[] = Object.values(handlersByRoute);
