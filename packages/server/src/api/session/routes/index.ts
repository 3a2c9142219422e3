import getSession from './getSession.js';
import getSignInMethods from './getSignInMethods.js';
import signIn from './signIn.js';
import signOut from './signOut.js';

/** Signing in and out, under their routes' names (the table is checked in api/routeHandlers.ts). */
export const sessionHandlers = {
  'session.signIn': signIn,
  'session.getSession': getSession,
  'session.signOut': signOut,
  'session.getSignInMethods': getSignInMethods,
} as const;
