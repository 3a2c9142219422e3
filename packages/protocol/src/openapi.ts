import type { TObject, TSchema } from '@sinclair/typebox';
import type { CallerKind, MethodDefinition } from './define.js';
import { commonErrors, errorRegistry } from './errors.js';
import { methodsByName } from './methods/index.js';
import { toJsonSchema, type JsonSchema } from './jsonSchema.js';
import { eventWebhooks, type OpenApiWebhook } from './openapiWebhooks.js';
import { errorResponses, refs, type OpenApiOperation, type OpenApiParameter, type OpenApiResponses } from './openapiParts.js';
import { isIdListSchema } from './params.js';

export { toJsonSchema, type JsonSchema } from './jsonSchema.js';
export type { OpenApiOperation, OpenApiParameter, OpenApiResponses } from './openapiParts.js';

/** A method's path: GET and POST. */
export type MethodPathItem = { get: OpenApiOperation; post: OpenApiOperation };

/** `PathItem` is a method's for the method API's own document; the whole document's paths hold routes too. */
export interface OpenApiDocument<PathItem = MethodPathItem> {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, PathItem>;
  /** The events the service sends to an app's listener, widgets and browser pages. */
  webhooks: Record<string, { post: OpenApiWebhook }>;
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, { description: string; schema: JsonSchema }>;
    securitySchemes: Record<string, Record<string, string>>;
  };
  security: Array<Record<string, string[]>>;
}

export interface OpenApiOptions {
  /** Where the API is served; the default `/` means "where this document came from". */
  serverUrl?: string;
}

const tokenDescription = 'the caller’s token; required, unless it is sent as `Authorization: Bearer <token>`';

/**
 * The OpenAPI 3.1 description of the method API, derived from the method definitions: one path per
 * method (`/v1/<name>`, GET and POST), its parameters, its result, and every error it can answer with;
 * and the ten events as webhooks, derived from their schemas.
 */
export function buildOpenApiDocument(
  methods: Iterable<MethodDefinition> = methodsByName.values(),
  options: OpenApiOptions = {},
): OpenApiDocument {
  const list = [...methods];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Aviary method API',
      version: 'v1',
      description:
        'Every method is called at /v1/<method> with GET (query string) or POST (form or JSON body). ' +
        'Errors answer with a non-200 status and {error, description, ...context}; see docs/errors.md. ' +
        'The webhooks are the events the service POSTs to an app’s event listener.',
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    tags: [...new Set(list.map(namespaceOf))].map((name) => ({ name })),
    paths: Object.fromEntries(list.map((method) => [`/v1/${method.name}`, pathItem(method)])),
    webhooks: eventWebhooks(),
    components: {
      schemas: { Error: errorSchema() },
      headers: {
        'X-Request-Id': { description: 'identifies the request in the server’s logs', schema: { type: 'string' } },
        'X-RateLimit-Limit': { description: 'the size of the caller’s bucket for this method', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'calls left in the bucket', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'seconds until the bucket is full again', schema: { type: 'integer' } },
        'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer' } },
        Allow: { description: 'the HTTP methods a method accepts', schema: { type: 'string' } },
      },
      securitySchemes,
    },
    security: [{ tokenParameter: [] }, { bearer: [] }],
  };
}

/** The credentials of docs/reference/methods.md "Who may call", one scheme per way of sending one. */
const securitySchemes: Record<string, Record<string, string>> = {
  tokenParameter: { type: 'apiKey', in: 'query', name: 'token', description: 'an app’s user or bot token as the `token` parameter (query string or body)' },
  bearer: { type: 'http', scheme: 'bearer', description: 'an app’s user or bot token as `Authorization: Bearer`' },
  session: { type: 'http', scheme: 'bearer', description: 'a person’s session token from POST /api/session as `Authorization: Bearer`' },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'aviary_session',
    description: 'the session cookie POST /api/session sets; with it, only a POST of JSON from the server’s own pages is taken (CrossSiteRequest otherwise)',
  },
  appSecret: { type: 'http', scheme: 'bearer', description: 'an app’s secret as `Authorization: Bearer`, with that app’s id as the `appId` parameter' },
};

/** The schemes each kind of caller may use; anyone's `{}` makes a credential optional. */
const schemesOf: Record<CallerKind, Array<Record<string, string[]>>> = {
  token: [{ tokenParameter: [] }, { bearer: [] }],
  session: [{ session: [] }, { sessionCookie: [] }],
  appSecret: [{ appSecret: [] }],
  anyone: [{}],
};

/** A method's security: the schemes of the callers it takes; none at all for one only anyone calls. */
export function securityOf(callers: readonly CallerKind[]): Array<Record<string, string[]>> {
  if (callers.every((kind) => kind === 'anyone')) return [];
  return callers.flatMap((kind) => schemesOf[kind]);
}

const namespaceOf = (method: MethodDefinition): string => method.name.slice(0, method.name.indexOf('.'));
/** `chat.sendMessage` → `chatSendMessage`. */
export const operationIdOf = (named: { name: string }): string => named.name.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase());

function pathItem(method: MethodDefinition): MethodPathItem {
  const common = { summary: method.summary, tags: [namespaceOf(method)], responses: responses(method), security: securityOf(method.callers) };
  const idempotency = idempotencyHeader(method);
  return {
    get: { operationId: `${operationIdOf(method)}Get`, ...common, parameters: [...queryParameters(method.params), ...idempotency] },
    post: {
      operationId: operationIdOf(method),
      ...common,
      ...(idempotency.length > 0 ? { parameters: idempotency } : {}),
      requestBody: {
        // Only a method without required parameters may be called with no body at all (a bearer token).
        required: (method.params.required?.length ?? 0) > 0,
        content: {
          'application/x-www-form-urlencoded': { schema: formBody(method.params) },
          'application/json': { schema: withToken(toJsonSchema(method.params)) },
        },
      },
    },
  };
}

/** The `Idempotency-Key` header of a method that declares an idempotency param (its value is that param). */
function idempotencyHeader(method: MethodDefinition): OpenApiParameter[] {
  if (!method.idempotencyParam) return [];
  const description = `the \`${method.idempotencyParam}\` parameter, as a header: a proxy may resend a call that carries it to another server process`;
  return [{ name: 'Idempotency-Key', in: 'header', required: false, description, schema: { type: 'string', minLength: 1, maxLength: 255 } }];
}

/**
 * How a value travels in a query string or a form, where everything is text: arrays and objects as JSON
 * text, id lists also as comma-separated ids; scalars as themselves.
 */
function asText(schema: TSchema): JsonSchema {
  const json = toJsonSchema(schema);
  if (json.type !== 'array' && json.type !== 'object') return json;
  const jsonText = { type: 'string', contentMediaType: 'application/json', contentSchema: json };
  if (!isIdListSchema(schema)) return { ...jsonText, ...(json.description ? { description: json.description } : {}) };
  return {
    anyOf: [jsonText, { type: 'string', description: 'ids separated by commas' }],
    ...(json.description ? { description: json.description } : {}),
  };
}

function queryParameters(params: TObject): OpenApiParameter[] {
  const required = new Set(params.required ?? []);
  return [
    { name: 'token', in: 'query', required: false, description: tokenDescription, schema: { type: 'string' } },
    ...Object.entries(params.properties).map(([name, schema]) => {
      const text = asText(schema);
      return {
        name,
        in: 'query' as const,
        required: required.has(name),
        ...(typeof text.description === 'string' ? { description: text.description } : {}),
        schema: text,
      };
    }),
  ];
}

function formBody(params: TObject): JsonSchema {
  return withToken({
    type: 'object',
    properties: Object.fromEntries(Object.entries(params.properties).map(([name, schema]) => [name, asText(schema)])),
    ...(params.required?.length ? { required: [...params.required] } : {}),
  });
}

function withToken(schema: JsonSchema): JsonSchema {
  return { ...schema, properties: { token: { type: 'string', description: tokenDescription }, ...(schema.properties as JsonSchema) } };
}

function responses(method: MethodDefinition): OpenApiResponses {
  return {
    '200': {
      description: 'Success',
      headers: refs(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
      content: { 'application/json': { schema: toJsonSchema(method.result) } },
    },
    ...errorResponses([...commonErrors, ...method.errors]),
  };
}

/** The error body; the context fields appear only with the codes that carry them (docs/errors.md). */
function errorSchema(): JsonSchema {
  return {
    type: 'object',
    required: ['error', 'description'],
    properties: {
      error: { type: 'string', enum: Object.keys(errorRegistry) },
      description: { type: 'string', description: 'a sentence for a person' },
      parameter: { type: 'string', description: 'the offending parameter (MissingParameter, InvalidParameter)' },
      disabledBy: { enum: ['user', 'team'], description: 'who disabled the app (AppDisabled)' },
      retryAfter: { type: 'integer', description: 'seconds to wait (TooManyRequests)' },
      origin: { type: 'string', description: 'the refused origin (OriginNotAllowed)' },
      requestId: { type: 'string', description: 'quote it when reporting the problem (InternalServerError)' },
      teams: {
        type: 'array',
        items: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } },
        description: 'the teams to choose from when signing in (TeamRequired)',
      },
    },
  };
}
