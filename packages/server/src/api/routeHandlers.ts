import type { RouteHandler, RouteHandlerTable } from './routeHandler.js';
import respond from './responses/respond.js';
import getSession from './session/routes/getSession.js';
import getSignInMethods from './session/routes/getSignInMethods.js';
import signIn from './session/routes/signIn.js';
import signOut from './session/routes/signOut.js';

/**
 * One handler for each route of @aviary/protocol (signing in and out, deferred replies), under the
 * route's name. A route without a handler here, or a handler filed under another route's name, is a type
 * error (test/api/routeHandlerTable.test.ts shows both and checks the table at run time too).
 */
export const handlersByRoute = {
  'session.signIn': signIn,
  'session.getSession': getSession,
  'session.signOut': signOut,
  'session.getSignInMethods': getSignInMethods,
  'responses.respond': respond,
} as const satisfies RouteHandlerTable;

/** The same handlers as a list, for registering their routes. */
export const routeHandlers: readonly RouteHandler[] = Object.values(handlersByRoute);
