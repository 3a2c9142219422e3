import { Validator } from '@seriousme/openapi-schema-validator';

type SpecData = Record<string, unknown>;
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, eventAnswerSchemas, eventExamples, eventHeaders, eventNames, toJsonSchema, eventSchemas } from '../src/index.js';

const doc = buildOpenApiDocument(undefined, { serverUrl: 'https://chat.example.com' });

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 for a real validator', async () => {
    const result = await new Validator().validate(structuredClone(doc) as unknown as SpecData);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('a broken document is refused by the same validator', async () => {
    const broken = structuredClone(doc) as unknown as { webhooks: Record<string, { post: { responses: unknown } }> };
    broken.webhooks['app.install'].post.responses = 'none';
    expect((await new Validator().validate(broken as unknown as SpecData)).valid).toBe(false);
  });

  it('lists the ten events as webhooks, each with its schema, an example, the token header and the answers read', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...eventNames].sort());
    for (const name of eventNames) {
      const { post } = doc.webhooks[name];
      expect(post.requestBody.content['application/json']).toEqual({ schema: toJsonSchema(eventSchemas[name]), example: eventExamples[name] });
      expect(post.parameters.find((parameter) => parameter.name === eventHeaders.token)).toMatchObject({ in: 'header', required: true });
      const answer = post.responses['200'].content?.['application/json']?.schema;
      expect(answer !== undefined, name).toBe(name in eventAnswerSchemas);
    }
    const operationIds = Object.values(doc.webhooks).map((item) => item.post.operationId);
    expect(new Set(operationIds).size).toBe(eventNames.length);
  });
});
