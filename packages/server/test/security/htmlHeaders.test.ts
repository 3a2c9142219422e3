import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpServer, type HttpServer } from '../../src/api/httpServer.js';
import { clientAddressResolver } from '../../src/api/security/clientAddress.js';
import { HTML_CONTENT_SECURITY_POLICY } from '../../src/api/security/headers.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/server.js';
import { createTestStore, type TestStore } from '../helpers/store.js';

/**
 * The server serves no HTML page yet (the web client comes later), so this builds the real HTTP server
 * with one extra route that does, as the web client's routes will be added, and checks what any HTML
 * answer gets.
 */
describe('security headers on HTML pages', () => {
  let testStore: TestStore;
  let http: HttpServer;
  let url: string;

  beforeAll(async () => {
    testStore = await createTestStore('sqlite');
    const ctx = createContext(loadConfig({ dataDir: testStore.dataDir, logLevel: 'silent' }, {}), testStore.store);
    http = await buildHttpServer(ctx, {
      plugins: [
        (app) => {
          app.get('/page', (_request, reply) => reply.type('text/html; charset=utf-8').send('<!doctype html><p>Hello</p>'));
          app.get('/framed-page', (_request, reply) =>
            reply.type('text/html').header('content-security-policy', "default-src 'none'; frame-ancestors 'self'").send('<p>Mine</p>'),
          );
        },
      ],
    });
    url = await http.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await http.drain();
    await testStore.destroy();
  });

  it('gives every text/html answer a strict Content-Security-Policy that no site may frame, nosniff and no-store', async () => {
    const page = await fetch(`${url}/page`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(HTML_CONTENT_SECURITY_POLICY);
    expect(HTML_CONTENT_SECURITY_POLICY).toMatch(/^default-src 'none';.*frame-ancestors 'none'$/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-store');
    // A page that states its own policy keeps it; framing is still refused to old browsers.
    const framed = await fetch(`${url}/framed-page`);
    expect(framed.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'self'");
    // JSON answers need no page policy.
    expect((await fetch(`${url}/v1/openapi.json`)).headers.get('content-security-policy')).toBeNull();
  });
});

describe('AVIARY_TRUST_PROXY entries', () => {
  it('accepts IP addresses and CIDR ranges, and stops the server at start naming an entry that is neither', () => {
    expect(loadConfig({}, { AVIARY_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,[::1]' }).trustProxy).toHaveLength(5);
    expect(() => clientAddressResolver(['127.0.0.1', '10.0.0.0/8'])).not.toThrow();
    for (const bad of ['nginx', 'localhost', 'proxy.internal', '10.0.0.0/33', '10.0.0.0/', '10.0.0.1/8/8', '::1/129']) {
      expect(() => loadConfig({}, { AVIARY_TRUST_PROXY: bad }), bad).toThrow(`AVIARY_TRUST_PROXY: "${bad}" is not an IP address or a CIDR range`);
    }
  });
});
