import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { findNginx, renderNginxConfig, siteConfigFile, startLocalNginx } from '../../../../deploy/local/nginx.js';
import { ConfigError, loadConfig } from '../../src/config.js';

const shipped = readFileSync(siteConfigFile, 'utf8');

/** The directives of the block that starts with `opening` (`upstream aviary {`, `location / {`), as [name, value]. */
function block(config: string, opening: string): Array<[string, string]> {
  const lines = config.split('\n').map((line) => line.trim());
  const start = lines.indexOf(opening);
  if (start < 0) throw new Error(`no "${opening}" in the config`);
  // Its own directives only: those of a block inside it (an `if`) are passed over.
  let depth = 0;
  const own: Array<[string, string]> = [];
  for (const line of lines.slice(start + 1)) {
    if (line.endsWith('{')) depth++;
    else if (line === '}' && depth-- === 0) break;
    const directive = /^(\S+)\s+(.*);$/.exec(line);
    if (directive && depth === 0) own.push([directive[1], directive[2]]);
  }
  return own;
}

const directive = (config: string, opening: string, name: string) => block(config, opening).find(([key]) => key === name)?.[1];
const seconds = (value: string | undefined) => Number(/^(\d+)s$/.exec(value ?? '')?.[1]);
/** What the server block sets for every location that does not set its own. */
const serverWide = (name: string) => shipped.split('\n').find((line) => new RegExp(`^    ${name} `).test(line))?.trim().replace(/;$/, '').split(/\s+/).slice(1).join(' ');

describe('deploy/nginx/aviary.conf and the processes behind it', () => {
  it('lets nginx close idle connections before a process would: its keepalive_timeout is shorter than the processes’', () => {
    const server = loadConfig({ dataDir: '/tmp' }, {});
    const nginxSeconds = seconds(directive(shipped, 'upstream aviary {', 'keepalive_timeout'));
    expect(nginxSeconds).toBe(60);
    expect(server.keepAliveTimeoutMs).toBeGreaterThan(nginxSeconds * 1000);
    // Behind a proxy, a draining process keeps the proxy's idle connections for half its grace, and
    // closes them at once without one.
    expect(loadConfig({ dataDir: '/tmp' }, { AVIARY_TRUST_PROXY: '127.0.0.1' }).drainIdleMs).toBe(server.shutdownGraceMs / 2);
    expect(server.drainIdleMs).toBe(0);
  });

  it('resends a POST that reached a process only with an Idempotency-Key, and opens a stream refused with 503 on the next process', () => {
    expect(serverWide('proxy_next_upstream')).toBe('error timeout');
    expect(directive(shipped, 'location = /api/stream {', 'proxy_next_upstream')).toBe('error timeout http_503');
    expect(directive(shipped, 'location = /api/stream {', 'proxy_pass')).toBe('http://aviary');
    expect(directive(shipped, 'location / {', 'proxy_pass')).toBe('http://aviary');
    // No process is left out of rotation after a failure: during a rolling restart all of them would be.
    const servers = block(shipped, 'upstream aviary {').filter(([name]) => name === 'server');
    expect(servers.length).toBeGreaterThan(1);
    for (const [, value] of servers) expect(value).toMatch(/ max_fails=0$/);
    // Only calls with an Idempotency-Key header are resent after they reached a process.
    const directives = shipped.split('\n').filter((line) => !line.trim().startsWith('#'));
    expect(directives.filter((line) => line.includes('non_idempotent'))).toEqual(['        proxy_next_upstream error timeout http_503 non_idempotent;']);
    expect(directive(shipped, 'location @idempotent {', 'proxy_next_upstream')).toBe('error timeout http_503 non_idempotent');
  });

  it.runIf(findNginx())('resends a POST whose connection was reset to the next process when it has an Idempotency-Key, and never without', async () => {
    const reached: string[] = [];
    // The first process resets every connection as a request arrives on it (as a draining process's
    // closing of an idle connection can meet nginx's write); the second answers with the body it got.
    const resets = createServer((request) => {
      reached.push(`first ${request.headers['idempotency-key'] ?? '-'}`);
      request.socket.destroy();
    });
    const answers = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => {
        reached.push(`second ${request.headers['idempotency-key'] ?? '-'}`);
        response.end(body);
      });
    });
    const backends = await Promise.all([resets, answers].map((server) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`127.0.0.1:${(server.address() as AddressInfo).port}`)))));
    const nginx = await startLocalNginx({ backends });
    try {
      const post = (headers: Record<string, string>) =>
        fetch(`${nginx.url}/v1/chat.sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"text":"hi"}' });
      // Round robin: each pair of calls meets the first process once.
      for (const answer of [await post({ 'idempotency-key': 'k' }), await post({ 'idempotency-key': 'k' })]) {
        expect(answer.status).toBe(200);
        expect(await answer.text()).toBe('{"text":"hi"}');
      }
      const plain = [await post({}), await post({})];
      expect(plain.map((answer) => answer.status).sort()).toEqual([200, 502]);
      expect(reached.filter((line) => line.startsWith('first'))).toEqual(['first k', 'first -']);
    } finally {
      await nginx.stop();
      resets.close();
      answers.close();
    }
  });

  it('renders the upstream with the processes of a run on loopback', () => {
    const rendered = renderNginxConfig({ backends: ['127.0.0.1:4001', '127.0.0.1:4002'], listen: '127.0.0.1:4000', prefix: '/tmp/nginx-run' });
    const servers = block(rendered, 'upstream aviary {').filter(([name]) => name === 'server').map(([, value]) => value);
    expect(servers).toEqual(['127.0.0.1:4001 max_fails=0', '127.0.0.1:4002 max_fails=0']);
    expect(directive(rendered, 'upstream aviary {', 'keepalive_timeout')).toBe('60s');
    expect(rendered).toContain('listen 127.0.0.1:4000;');
  });

  it('reads AVIARY_KEEP_ALIVE_TIMEOUT_MS and AVIARY_DRAIN_IDLE_MS', () => {
    expect(loadConfig({ dataDir: '/tmp' }, { AVIARY_KEEP_ALIVE_TIMEOUT_MS: '90000', AVIARY_DRAIN_IDLE_MS: '0' })).toMatchObject({ keepAliveTimeoutMs: 90_000, drainIdleMs: 0 });
    expect(() => loadConfig({ dataDir: '/tmp' }, { AVIARY_KEEP_ALIVE_TIMEOUT_MS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ dataDir: '/tmp' }, { AVIARY_DRAIN_IDLE_MS: 'soon' })).toThrow(/AVIARY_DRAIN_IDLE_MS/);
  });
});
