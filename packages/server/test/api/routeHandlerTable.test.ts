import { routesByName } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import type { RouteHandlerTable } from '../../src/api/routeHandler.js';
import { handlersByRoute } from '../../src/api/routeHandlers.js';

describe('the route handler table', () => {
  it('has exactly one handler for each protocol route, filed under that route’s name', () => {
    expect(Object.keys(handlersByRoute).sort()).toEqual([...routesByName.keys()].sort());
    for (const [name, handler] of Object.entries(handlersByRoute)) {
      expect(handler.route, name).toBe(routesByName.get(name));
    }
  });

  it('is checked for completeness by the type system', () => {
    const { 'session.signIn': _missing, ...withoutSignIn } = handlersByRoute;
    // @ts-expect-error a protocol route without a handler does not make a RouteHandlerTable
    const incomplete: RouteHandlerTable = withoutSignIn;
    // @ts-expect-error a handler filed under another route's name does not either
    const misfiled: RouteHandlerTable = { ...handlersByRoute, 'session.signIn': handlersByRoute['session.signOut'] };
    expect([incomplete, misfiled]).toHaveLength(2);
  });

  it('names each route once: no two routes share a name, or a verb and path', () => {
    const routes = [...routesByName.values()];
    expect(new Set(routes.map((route) => `${route.verb} ${route.path}`)).size).toBe(routes.length);
  });
});
