import { readdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { WEB_CLIENT_DIST } from '../../../server/src/api/webClient.js';
import { http, sessionFor } from '../../../server/test/client/harness.js';
import { forEachDialect } from '../../../server/test/helpers/server.js';

forEachDialect('the web client is served', (t) => {
  it('answers index.html at / and at the client’s own paths, under the page CSP, never cached', async () => {
    for (const path of ['/', '/signin', '/apps', '/c/g%3Aabcdefghijklmnop']) {
      const page = await http(t().url, 'GET', path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("style-src 'self';");
      expect(csp).toContain('frame-src http: https:;');
      expect(csp).toContain("media-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe');
    }
  });

  it('emits no inline script or style: every script and stylesheet of the page is a file under /assets/', async () => {
    const html = String((await http(t().url, 'GET', '/')).body);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.some((path) => path.endsWith('.js'))).toBe(true);
    for (const path of assets) {
      const asset = await http(t().url, 'GET', path);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('sends the build’s Brotli or gzip copy as the browser accepts, the file itself otherwise, varying by Accept-Encoding', async () => {
    const script = readdirSync(join(WEB_CLIENT_DIST, 'assets')).find((name) => name.endsWith('.js'))!;
    for (const [path, file] of [[`/assets/${script}`, join(WEB_CLIENT_DIST, 'assets', script)], ['/', join(WEB_CLIENT_DIST, 'index.html')]] as const) {
      const plain = readFileSync(file);
      const cases: Array<[string | undefined, string | undefined, (body: Buffer) => Buffer]> = [
        ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
        ['br;q=0, gzip', 'gzip', gunzipSync],
        ['GZIP;q=0.5', 'gzip', gunzipSync],
        ['*', 'br', brotliDecompressSync],
        ['br;q=0, gzip;q=0', undefined, (body) => body],
        ['identity', undefined, (body) => body],
        [undefined, undefined, (body) => body],
      ];
      for (const [accept, encoding, decode] of cases) {
        const answer = await rawGet(`${t().url}${path}`, accept);
        expect(answer.status, `${path} ${accept}`).toBe(200);
        expect(answer.headers['content-encoding'], `${path} ${accept}`).toBe(encoding);
        expect(answer.headers.vary).toMatch(/accept-encoding/i);
        expect(decode(answer.body).equals(plain), `${path} ${accept}`).toBe(true);
        if (encoding) expect(answer.body.length).toBeLessThan(plain.length);
      }
    }
    // The copies are the build's, never files of their own.
    expect((await rawGet(`${t().url}/assets/${script}.br`, 'br')).status).toBe(404);
  });

  it('serves only built files: no other path, no traversal', async () => {
    const built = readdirSync(join(WEB_CLIENT_DIST, 'assets'));
    expect(built.length).toBeGreaterThan(0);
    for (const path of ['/assets/nothing.js', '/assets/..%2Findex.html', '/assets/..%2F..%2Fpackage.json', '/assets/.hidden.js', '/assets/x.map']) {
      const answer = await http(t().url, 'GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('answers a browser at an address nothing is served at with a page saying so, and anything else with the API’s error', async () => {
    const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const page = await http(t().url, 'GET', '/nonexistent/page', { headers: browser });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.body).toContain('There is no page at this address.');
    // The API's own paths, another method, and a client that asks for JSON keep the API's answer.
    for (const [method, path, headers] of [['GET', '/v1/nothing.here', browser], ['GET', '/api/nothing', browser], ['DELETE', '/nonexistent/page', browser], ['GET', '/nonexistent/page', {}]] as const) {
      const answer = await http(t().url, method, path, { headers });
      expect(answer.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/json/);
    }
  });

  it('GET /api/session says who is signed in, with the team; without a live session, {user: null} and no error status', async () => {
    const team = await t().f.team('Birdwatchers');
    const person = await t().f.person(team.id, { firstName: 'Ada' });
    expect(await http(t().url, 'GET', '/api/session')).toMatchObject({ status: 200, body: { user: null } });
    expect(await http(t().url, 'GET', '/api/session', { headers: { authorization: 'Bearer as_s_not-a-session' } })).toMatchObject({ status: 200, body: { user: null } });
    const { sessionToken } = await sessionFor(t(), person);
    const answer = await http(t().url, 'GET', '/api/session', { headers: { authorization: `Bearer ${sessionToken}` } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      user: expect.objectContaining({ id: person.id, firstName: 'Ada', teamId: team.id }),
      team: { id: team.id, name: 'Birdwatchers' },
      streamCursor: expect.stringMatching(/^[0-9]+$/),
    });
  });

  it('roster.listContacts with a session lists teammates and every bot of the team, installed or not, bots marked', async () => {
    const team = await t().f.team();
    const me = await t().f.person(team.id, { firstName: 'Me' });
    const mate = await t().f.person(team.id, { firstName: 'Mate' });
    const app = await t().f.app(team.id, me.id, { name: 'Helper' });
    const { botUserId } = await t().f.bot(app.id);
    const { token } = await t().f.install(app.id, me.id);
    // An app Me never installed: its bot still posts where Me reads, and is named.
    const other = await t().f.app(team.id, mate.id, { name: 'Other' });
    const { botUserId: otherBot } = await t().f.bot(other.id);
    const otherTeam = await t().f.team();
    const elsewhere = await t().f.app(otherTeam.id, (await t().f.person(otherTeam.id)).id, { name: 'Elsewhere' });
    await t().f.bot(elsewhere.id);
    const answer = await (await sessionFor(t(), me)).call('roster.listContacts');
    expect(answer.status).toBe(200);
    const people = answer.body as Array<{ id: string; firstName: string; isBot?: boolean }>;
    expect(people.map((person) => person.id).sort()).toEqual([mate.id, botUserId, otherBot].sort());
    expect(people.find((person) => person.id === otherBot)).toMatchObject({ firstName: 'Other', isBot: true });
    expect(people.find((person) => person.id === botUserId)?.isBot).toBe(true);
    expect(people.find((person) => person.id === mate.id)).not.toHaveProperty('isBot');
    // A token's roster is unchanged: only the bots of apps its user installed, without isBot.
    const byToken = await http(t().url, 'POST', '/v1/roster.listContacts', { json: { token } });
    expect((byToken.body as Array<{ id: string }>).map((person) => person.id).sort()).toEqual([mate.id, botUserId].sort());
    expect(JSON.stringify(byToken.body)).not.toContain('isBot');
  });
});

/** A GET without the decoding fetch does, with exactly the Accept-Encoding given (none when undefined). */
function rawGet(url: string, acceptEncoding: string | undefined): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}
