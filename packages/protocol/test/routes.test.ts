import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import {
  AviaryApiError,
  buildRequest,
  createRouteClient,
  defineRoute,
  pathParamNames,
  routesByName,
  responseRoutes,
  sessionRoutes,
  type FetchFunction,
} from '../src/index.js';

describe('route definitions', () => {
  it('are named <group>.<route> after their group, and each path parameter is declared', () => {
    for (const [group, routes] of Object.entries({ session: sessionRoutes, responses: responseRoutes })) {
      for (const [key, route] of Object.entries(routes)) {
        expect(route.name).toBe(`${group}.${key}`);
        for (const name of pathParamNames(route.path)) expect(route.params.properties, route.name).toHaveProperty(name);
      }
    }
    expect(routesByName.size).toBe([sessionRoutes, responseRoutes].reduce((count, group) => count + Object.keys(group).length, 0));
  });

  it('refuse a path parameter the params do not declare', () => {
    const define = () =>
      defineRoute({ name: 'test.broken', summary: '', verb: 'GET', path: '/api/test/:id', params: Type.Object({}), result: Type.Object({}), errors: [] });
    expect(define).toThrow(/path parameters id/);
  });
});

/** Routes made for these tests alone: a path parameter, a query, a JSON body. */
const appId = Type.String();
const testRoutes = {
  listEvents: defineRoute({
    name: 'test.listEvents', summary: '', verb: 'GET', path: '/api/test/apps/:id/events',
    params: Type.Object({ id: appId, limit: Type.Optional(Type.Integer()), status: Type.Optional(Type.String()), before: Type.Optional(Type.String()) }),
    result: Type.Object({}), errors: [],
  }),
  getApp: defineRoute({ name: 'test.getApp', summary: '', verb: 'GET', path: '/api/test/apps/:id', params: Type.Object({ id: appId }), result: Type.Object({}), errors: [] }),
  updateApp: defineRoute({
    name: 'test.updateApp', summary: '', verb: 'POST', path: '/api/test/apps/:id',
    params: Type.Object({ id: appId, name: Type.Optional(Type.String()), icon: Type.Optional(Type.Null()) }), result: Type.Object({}), errors: [],
  }),
  rotateSecret: defineRoute({ name: 'test.rotateSecret', summary: '', verb: 'POST', path: '/api/test/apps/:id/secret', params: Type.Object({ id: appId }), result: Type.Object({}), errors: [] }),
  createApp: defineRoute({
    name: 'test.createApp', summary: '', verb: 'POST', path: '/api/test/apps', params: Type.Object({ name: Type.String() }),
    result: Type.Object({ app: Type.Object({ id: Type.String() }) }), errors: [],
  }),
};

describe('buildRequest', () => {
  it('puts path parameters in the path, encoded, and the others in the query of a GET', () => {
    const request = buildRequest(testRoutes.listEvents, { id: 'a:x y/z', limit: 5, status: 'failed', before: undefined });
    expect(request).toEqual({ path: '/api/test/apps/a%3Ax%20y%2Fz/events?limit=5&status=failed' });
    expect(buildRequest(sessionRoutes.getSession, {})).toEqual({ path: '/api/session' });
  });

  it('sends the other parameters of a change as a JSON body', () => {
    expect(buildRequest(testRoutes.updateApp, { id: 'a:1', name: 'N', icon: null })).toEqual({ path: '/api/test/apps/a%3A1', body: '{"name":"N","icon":null}' });
    expect(buildRequest(testRoutes.rotateSecret, { id: 'a:1' })).toEqual({ path: '/api/test/apps/a%3A1/secret', body: '{}' });
  });

  it('refuses a call without its path parameter, rather than calling another path', () => {
    expect(() => buildRequest(testRoutes.getApp, {})).toThrow(/path parameter id is missing/);
  });
});

describe('createRouteClient', () => {
  /** A stand-in for fetch that records what it was asked and answers as told: this tests the client alone. */
  function answering(status: number, body: string) {
    const calls: Array<{ url: string; init: Parameters<FetchFunction>[1] }> = [];
    const fetch: FetchFunction = async (url, init) => {
      calls.push({ url, init });
      return { status, text: async () => body };
    };
    return { calls, fetch };
  }

  it('calls the route with its verb, headers and body, and answers the parsed result', async () => {
    const { calls, fetch } = answering(201, '{"app":{"id":"a:1"}}');
    const client = createRouteClient(testRoutes, { baseUrl: 'https://chat.example/', fetch, headers: () => ({ authorization: 'Bearer s' }) });
    expect(await client.createApp({ name: 'Weather' })).toEqual({ app: { id: 'a:1' } });
    expect(calls).toEqual([
      {
        url: 'https://chat.example/api/test/apps',
        init: { method: 'POST', headers: { authorization: 'Bearer s', 'content-type': 'application/json' }, body: '{"name":"Weather"}' },
      },
    ]);
  });

  it('throws AviaryApiError with the code, status and parameter of an error answer', async () => {
    const client = createRouteClient(sessionRoutes, { fetch: answering(400, '{"error":"InvalidParameter","description":"no","parameter":"limit"}').fetch });
    const error = await client.signIn({ email: 'a@example.test', password: 'x' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AviaryApiError);
    expect(error).toMatchObject({ code: 'InvalidParameter', status: 400, parameter: 'limit' });
    const proxy = createRouteClient(sessionRoutes, { fetch: answering(502, '<html>Bad gateway</html>').fetch });
    expect(await proxy.getSession().catch((thrown: unknown) => thrown)).toMatchObject({ code: 'UnknownError', rawCode: 'HTTP502', status: 502 });
  });
});
