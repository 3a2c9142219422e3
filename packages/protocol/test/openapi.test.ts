import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import {
  api,
  buildOpenApiDocument,
  commonErrors,
  defineMethod,
  errorRegistry,
  methodsByName,
  toJsonSchema,
  type JsonSchema,
  type OpenApiDocument,
} from '../src/index.js';

const doc = buildOpenApiDocument();

/** The security requirements each kind of caller adds (docs/reference/methods.md "Who may call"). */
const credentialSchemes = {
  token: [{ tokenParameter: [] }, { bearer: [] }],
  session: [{ session: [] }, { sessionCookie: [] }],
  appSecret: [{ appSecret: [] }],
  anyone: [{}],
};

/** JSON Schema 2020-12 keywords, and the few OpenAPI adds to a Schema Object. */
const schemaKeywords = new Set([
  '$schema', '$id', '$ref', '$defs', '$anchor', '$comment', '$dynamicRef', '$dynamicAnchor',
  'type', 'enum', 'const', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else',
  'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'required', 'minProperties', 'maxProperties',
  'dependentRequired', 'dependentSchemas', 'unevaluatedProperties',
  'items', 'prefixItems', 'contains', 'minItems', 'maxItems', 'uniqueItems', 'minContains', 'maxContains', 'unevaluatedItems',
  'minLength', 'maxLength', 'pattern', 'format', 'contentMediaType', 'contentEncoding', 'contentSchema',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'discriminator', 'xml', 'externalDocs', 'example',
]);

/** Every keyword of a schema and its subschemas that is neither standard nor an `x-` extension. */
function unknownKeywords(schema: JsonSchema, path: string): string[] {
  const found: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (!schemaKeywords.has(key) && !key.startsWith('x-')) found.push(`${path}.${key}`);
    if (['properties', 'patternProperties', '$defs', 'dependentSchemas'].includes(key)) {
      for (const [name, sub] of Object.entries(value as Record<string, JsonSchema>)) found.push(...unknownKeywords(sub, `${path}.${key}.${name}`));
    } else if (['allOf', 'anyOf', 'oneOf', 'prefixItems'].includes(key)) {
      (value as JsonSchema[]).forEach((sub, i) => found.push(...unknownKeywords(sub, `${path}.${key}[${i}]`)));
    } else if (['items', 'not', 'contentSchema', 'additionalProperties', 'if', 'then', 'else', 'contains'].includes(key) && typeof value === 'object') {
      found.push(...unknownKeywords(value as JsonSchema, `${path}.${key}`));
    }
  }
  return found;
}

/** Every schema the document holds, with where it is. */
function allSchemas(document: OpenApiDocument): Array<[string, JsonSchema]> {
  const out: Array<[string, JsonSchema]> = Object.entries(document.components.schemas).map(([name, schema]) => [`components.${name}`, schema]);
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [verb, operation] of Object.entries(item)) {
      const at = `${verb.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) out.push([`${at} ?${parameter.name}`, parameter.schema]);
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) out.push([`${at} body ${type}`, media.schema]);
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const media of Object.values(response.content ?? {})) out.push([`${at} ${status}`, media.schema]);
      }
    }
  }
  return out;
}

function refsIn(value: unknown): string[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner)));
}

describe('the OpenAPI document', () => {
  it('is an OpenAPI 3.1 document of plain JSON', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual({ title: expect.any(String), version: 'v1', description: expect.any(String) });
    expect(doc.servers).toEqual([{ url: '/' }]);
    // Nothing is lost in serialization: no symbols, functions or undefined values.
    expect(JSON.parse(JSON.stringify(doc))).toStrictEqual(doc);
  });

  it('lists exactly the methods of the protocol, each at /v1/<name> with GET and POST', () => {
    const fromApi = Object.values(api).flatMap((namespace) => Object.values(namespace).map((method) => `/v1/${method.name}`));
    expect(Object.keys(doc.paths).sort()).toEqual(fromApi.sort());
    expect(Object.keys(doc.paths).sort()).toEqual([...methodsByName.keys()].map((name) => `/v1/${name}`).sort());
    for (const item of Object.values(doc.paths)) expect(Object.keys(item).sort()).toEqual(['get', 'post']);
    const operationIds = Object.values(doc.paths).flatMap((item) => [item.get.operationId, item.post.operationId]);
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it('describes a list of methods it is given, and no other', () => {
    const ping = defineMethod({ name: 'test.ping', summary: 'Ping.', callers: ['token'], rateClass: 'read', params: Type.Object({}), result: Type.Object({}), errors: [] });
    expect(Object.keys(buildOpenApiDocument([ping], { serverUrl: 'https://chat.example' }).paths)).toEqual(['/v1/test.ping']);
    expect(buildOpenApiDocument([ping], { serverUrl: 'https://chat.example' }).servers).toEqual([{ url: 'https://chat.example' }]);
  });

  describe.each([...methodsByName.values()].map((method) => [method.name, method] as const))('%s', (name, method) => {
    const { get, post } = doc.paths[`/v1/${name}`];
    const names = Object.keys(method.params.properties);
    const required = new Set(method.params.required ?? []);

    it('takes token and every parameter in the query string, required as defined', () => {
      const query = get.parameters?.filter((parameter) => parameter.in !== 'header');
      expect(query?.map((parameter) => parameter.name)).toEqual(['token', ...names]);
      for (const parameter of query ?? []) {
        expect(parameter.in).toBe('query');
        expect(parameter.required).toBe(required.has(parameter.name));
      }
    });

    it('takes an Idempotency-Key header exactly when the method has an idempotency param', () => {
      const headers = [...(get.parameters ?? []), ...(post.parameters ?? [])].filter((parameter) => parameter.in === 'header');
      expect(headers.map((parameter) => parameter.name)).toEqual(method.idempotencyParam ? ['Idempotency-Key', 'Idempotency-Key'] : []);
    });

    it('takes them as a form or a JSON body on POST', () => {
      const form = post.requestBody?.content['application/x-www-form-urlencoded'].schema;
      const json = post.requestBody?.content['application/json'].schema;
      for (const body of [form, json]) {
        expect(Object.keys(body?.properties as object)).toEqual(['token', ...names]);
        expect(new Set((body?.required as string[] | undefined) ?? [])).toEqual(required);
      }
      expect(json?.properties).toMatchObject(toJsonSchema(method.params).properties as object);
      expect(post.requestBody?.required).toBe(required.size > 0);
    });

    it('names the credentials it takes, and only those', () => {
      const expected = method.callers.flatMap((kind) => credentialSchemes[kind]);
      const security = method.callers.every((kind) => kind === 'anyone') ? [] : expected;
      expect(get.security).toEqual(security);
      expect(post.security).toEqual(security);
      for (const requirement of security) for (const scheme of Object.keys(requirement)) expect(doc.components.securitySchemes).toHaveProperty(scheme);
    });

    it('answers 200 with the result schema, and every error it can give under its status', () => {
      expect(get.responses['200'].content?.['application/json'].schema).toEqual(toJsonSchema(method.result));
      const listed = Object.entries(post.responses)
        .filter(([status]) => status !== '200')
        .flatMap(([status, response]) => {
          const codes = ((response.content?.['application/json'].schema.allOf as JsonSchema[])[1].properties as { error: { enum: string[] } }).error.enum;
          for (const code of codes) expect(errorRegistry[code as keyof typeof errorRegistry].status).toBe(Number(status));
          return codes;
        });
      expect(listed.sort()).toEqual([...new Set([...commonErrors, ...method.errors])].sort());
      expect(get.responses).toEqual(post.responses);
    });
  });

  it('tells apart the methods of apps, of people, of an app’s secret and of anyone', () => {
    const security = (name: string) => doc.paths[`/v1/${name}`].post.security;
    expect(security('chat.sendMessage')).toEqual([{ tokenParameter: [] }, { bearer: [] }, { session: [] }, { sessionCookie: [] }]);
    expect(security('apps.getInfo')).toContainEqual({ appSecret: [] });
    expect(security('chat.sendMessage')).not.toContainEqual({ appSecret: [] });
    const sessionOnly = [...methodsByName.values()].find((method) => method.callers.length === 1 && method.callers[0] === 'session');
    expect(security(sessionOnly!.name)).toEqual([{ session: [] }, { sessionCookie: [] }]);
    const anyoneOnly = [...methodsByName.values()].find((method) => method.callers.every((kind) => kind === 'anyone'));
    expect(security(anyoneOnly!.name)).toEqual([]);
  });

  it('uses only JSON Schema 2020-12 keywords (our markers become x- extensions)', () => {
    const unknown = allSchemas(doc).flatMap(([where, schema]) => unknownKeywords(schema, where));
    expect(unknown).toEqual([]);
  });

  it('resolves every $ref inside itself', () => {
    for (const ref of refsIn(doc)) {
      const target = ref.replace(/^#\//, '').split('/').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], doc);
      expect(target, ref).toBeDefined();
    }
  });

  it('says how lists and objects travel as text: JSON, and id lists also comma-separated', () => {
    const query = Object.fromEntries((doc.paths['/v1/chat.sendMessage'].get.parameters ?? []).map((parameter) => [parameter.name, parameter.schema]));
    expect(query.sendAs).toMatchObject({ type: 'string', contentMediaType: 'application/json', contentSchema: { type: 'object' } });
    expect(query.mentions.anyOf).toEqual([
      expect.objectContaining({ contentMediaType: 'application/json', contentSchema: expect.objectContaining({ type: 'array', 'x-aviary-id-list': true }) }),
      expect.objectContaining({ type: 'string', description: expect.stringContaining('commas') }),
    ]);
    expect(query.text).toEqual(expect.objectContaining({ type: 'string', minLength: 1 }));
    const json = doc.paths['/v1/chat.sendMessage'].post.requestBody?.content['application/json'].schema.properties as Record<string, JsonSchema>;
    expect(json.mentions).toMatchObject({ type: 'array', 'x-aviary-id-list': true });
  });
});
