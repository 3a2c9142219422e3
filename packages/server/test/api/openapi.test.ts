import { buildFullOpenApiDocument } from '@aviary/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';

describe('GET /v1/openapi.json and GET /openapi.json', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { publicUrl: 'https://chat.example' });
  });
  afterAll(() => stopTestServer(t));

  it('serves one document: /v1/openapi.json is the same as /openapi.json, with the configured public URL as its server', async () => {
    const [alias, whole] = await Promise.all([fetch(`${t.url}/v1/openapi.json`), fetch(`${t.url}/openapi.json`)]);
    expect(alias.status).toBe(200);
    expect(alias.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await alias.text()).toBe(await whole.text());
  });

  it('serves the whole document at /openapi.json: the session and reply routes beside the methods', async () => {
    const response = await fetch(`${t.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const document = await response.json();
    expect(document).toEqual(buildFullOpenApiDocument({ serverUrl: 'https://chat.example' }));
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/chat.sendMessage', '/v1/chat.sendFromComposer', '/v1/apps.create', '/v1/deliveries.list', '/api/session']));
  });

  it('is a route of its own, not a method: POST gets NoSuchMethod from the dispatcher', async () => {
    const response = await t.call('openapi.json', { form: { token: 'x' } });
    expect(response.status).toBe(404);
    expect(response.body.error).toBe('NoSuchMethod');
  });
});
