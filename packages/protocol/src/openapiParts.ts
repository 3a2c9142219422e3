/** What the OpenAPI descriptions of the method API and of the routes share: operation shapes and error answers. */
import { errorRegistry, type ErrorCode } from './errors.js';
import type { JsonSchema } from './jsonSchema.js';

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'header' | 'path';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export type OpenApiResponses = Record<string, { description: string; headers?: Record<string, { $ref: string }>; content?: Record<string, { schema: JsonSchema }> }>;

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: OpenApiResponses;
  /** Overrides the document's security: `[]` for an operation anyone may call. */
  security?: Array<Record<string, string[]>>;
}

export const refs = (names: string[]): Record<string, { $ref: string }> =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** The answers of these error codes, one per status, each listing its codes. */
export function errorResponses(codes: Iterable<ErrorCode>): OpenApiResponses {
  const out: OpenApiResponses = {};
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = errorRegistry[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: list.map((code) => `${code}: ${errorRegistry[code].description}`).join(' '),
      headers: refs(['X-Request-Id', ...(status === 429 || status === 503 ? ['Retry-After'] : []), ...(status === 405 ? ['Allow'] : [])]),
      content: {
        'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { enum: list } } }] } },
      },
    };
  }
  return out;
}
