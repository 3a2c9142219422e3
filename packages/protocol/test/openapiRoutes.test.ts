import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import {
  buildFullOpenApiDocument,
  buildOpenApiDocument,
  errorRegistry,
  pathParamNames,
  readsBody,
  routeCommonErrors,
  routesByName,
  toJsonSchema,
  type JsonSchema,
  type OpenApiOperation,
} from '../src/index.js';

type SpecData = Record<string, unknown>;

const doc = buildFullOpenApiDocument({ serverUrl: 'https://chat.example.com' });
const operationOf = (path: string, verb: string): OpenApiOperation | undefined =>
  (doc.paths[path.replace(/:(\w+)/g, '{$1}')] as Record<string, OpenApiOperation> | undefined)?.[verb.toLowerCase()];

describe('the whole OpenAPI document', () => {
  it('is valid OpenAPI 3.1 for a real validator', async () => {
    const result = await new Validator().validate(structuredClone(doc) as unknown as SpecData);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('holds the method API’s paths and webhooks, and every route of the client, developer and session APIs', () => {
    const methods = buildOpenApiDocument(undefined, { serverUrl: 'https://chat.example.com' });
    expect(doc.paths).toMatchObject(methods.paths);
    expect(doc.webhooks).toEqual(methods.webhooks);
    for (const route of routesByName.values()) expect(operationOf(route.path, route.verb), route.name).toBeDefined();
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item) as OpenApiOperation[]);
    // Besides: an incoming webhook's URL (openapiIncomingWebhook.ts).
    expect(operations).toHaveLength(2 * Object.keys(methods.paths).length + routesByName.size + 1);
    expect(doc.paths['/hooks/{id}/{secret}']).toMatchObject({ post: { operationId: 'incomingWebhook', security: [] } });
    expect(new Set(operations.map((operation) => operation.operationId)).size).toBe(operations.length);
  });

  describe.each([...routesByName.values()].map((route) => [route.name, route] as const))('%s', (_name, route) => {
    const operation = operationOf(route.path, route.verb)!;
    const properties = toJsonSchema(route.params).properties as Record<string, JsonSchema>;
    const inPath = pathParamNames(route.path);

    it('takes its path parameters in the path, the others in the query or the JSON body', () => {
      const where = Object.fromEntries((operation.parameters ?? []).map((parameter) => [parameter.name, parameter.in]));
      for (const name of inPath) expect(where[name]).toBe('path');
      const others = Object.keys(properties).filter((name) => !inPath.includes(name));
      const body = operation.requestBody?.content['application/json'].schema;
      if (!readsBody(route)) {
        for (const name of others) expect(where[name]).toBe('query');
        expect(body).toBeUndefined();
      } else {
        expect(Object.keys(body?.properties as object)).toEqual(others);
      }
    });

    it('answers its status with the result schema, and lists every error it can give under its status', () => {
      expect(operation.responses['200'].content?.['application/json'].schema).toEqual(toJsonSchema(route.result));
      const listed = Object.entries(operation.responses)
        .filter(([status]) => Number(status) >= 400)
        .flatMap(([status, response]) => {
          const codes = ((response.content?.['application/json'].schema.allOf as JsonSchema[])[1].properties as { error: { enum: string[] } }).error.enum;
          for (const code of codes) expect(errorRegistry[code as keyof typeof errorRegistry].status).toBe(Number(status));
          return codes;
        });
      expect(listed.sort()).toEqual([...new Set([...routeCommonErrors(route), ...route.errors])].sort());
    });

    it('says it takes no credential', () => {
      expect(operation.security).toEqual([]);
      expect(doc.components.securitySchemes).toHaveProperty('sessionCookie');
    });
  });
});
