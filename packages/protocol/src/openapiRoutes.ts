/**
 * The routes that keep a path of their own (sessions, deferred replies) in OpenAPI, derived from their
 * definitions; and the whole document: the method API's, with these routes beside its methods.
 */
import { buildOpenApiDocument, operationIdOf, securityOf, type MethodPathItem, type OpenApiDocument, type OpenApiOptions } from './openapi.js';
import { errorResponses, refs, type OpenApiOperation, type OpenApiParameter } from './openapiParts.js';
import { toJsonSchema, type JsonSchema } from './jsonSchema.js';
import { pathParamNames, readsBody, routeCommonErrors, type RouteDefinition, type RouteVerb } from './routes/define.js';
import { routesByName } from './routes/index.js';
import { incomingWebhookPaths } from './openapiIncomingWebhook.js';

export type RoutePathItem = Partial<Record<Lowercase<RouteVerb>, OpenApiOperation>>;
export type FullOpenApiDocument = OpenApiDocument<MethodPathItem | RoutePathItem>;

/**
 * Every surface in one document: the /v1 methods, the session and reply routes, and the
 * events as webhooks. Served at /openapi.json; /v1/openapi.json keeps the method API alone.
 */
export function buildFullOpenApiDocument(options: OpenApiOptions = {}, routes: Iterable<RouteDefinition> = routesByName.values()): FullOpenApiDocument {
  const methods = buildOpenApiDocument(undefined, options);
  const list = [...routes];
  return {
    ...methods,
    info: {
      title: 'Aviary API',
      version: 'v1',
      description:
        'Apps call the methods at /v1/<method> with a token; a person’s client (the web client, the developer dashboard) ' +
        'calls them with a session (POST /api/session), and an app’s secret calls the developer methods about that app. ' +
        'Errors answer with {error, description, ...context}; ' +
        'see docs/errors.md. The webhooks are the events the service POSTs to an app’s event listener.',
    },
    tags: [...methods.tags, ...[...new Set(list.map(groupOf))].map((name) => ({ name }))],
    paths: { ...methods.paths, ...routePaths(list), ...incomingWebhookPaths },
  };
}

/** One path item per route path (OpenAPI's `{id}` for `:id`), an operation per verb. */
export function routePaths(routes: Iterable<RouteDefinition>): Record<string, RoutePathItem> {
  const paths: Record<string, RoutePathItem> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.verb.toLowerCase()]: operation(route) };
  }
  return paths;
}

const groupOf = (route: RouteDefinition): string => route.name.slice(0, route.name.indexOf('.'));

function operation(route: RouteDefinition): OpenApiOperation {
  const inPath = new Set(pathParamNames(route.path));
  const params = toJsonSchema(route.params);
  const properties = params.properties as Record<string, JsonSchema>;
  const required = new Set((params.required as string[] | undefined) ?? []);
  const parameter = (name: string, where: 'path' | 'query'): OpenApiParameter => {
    const schema = properties[name] ?? {};
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
      schema,
    };
  };
  const others = Object.keys(properties).filter((name) => !inPath.has(name));
  const parameters = [...[...inPath].map((name) => parameter(name, 'path')), ...(readsBody(route) ? [] : others.map((name) => parameter(name, 'query')))];
  return {
    operationId: operationIdOf(route),
    summary: route.summary,
    tags: [groupOf(route)],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(readsBody(route) ? { requestBody: requestBody(params, others, required) } : {}),
    responses: {
      200: {
        description: 'Success',
        headers: refs(['X-Request-Id']),
        content: { 'application/json': { schema: toJsonSchema(route.result) } },
      },
      ...errorResponses([...routeCommonErrors(route), ...route.errors]),
    },
    security: securityOf(route.callers),
  };
}

/** The JSON body: the named fields besides the path's. */
function requestBody(params: JsonSchema, fields: string[], required: Set<string>): NonNullable<OpenApiOperation['requestBody']> {
  const properties = params.properties as Record<string, JsonSchema>;
  const requiredFields = fields.filter((name) => required.has(name));
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(fields.map((name) => [name, properties[name]])),
    ...(requiredFields.length > 0 ? { required: requiredFields } : {}),
    ...(params.additionalProperties === false ? { additionalProperties: false } : {}),
  };
  return { required: requiredFields.length > 0, content: { 'application/json': { schema } } };
}
