import { methodsByName } from '@aviary/protocol';
import { expect, it } from 'vitest';
import { teamWithApp } from '../helpers/factories.js';
import { inParallel, plainHttp, type PlainRequest } from '../helpers/http.js';
import { forEachDialect } from '../helpers/server.js';
import { RawConnection } from './rawHttp.js';
import { prng } from '../helpers/prng.js';

const REQUESTS = 2000;
const LONE_SURROGATE = /(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/g;

const nasty = [
  "' OR 1=1 --", "'; DROP TABLE messages; --", '../../../../etc/passwd', '..\\..\\windows\\win.ini', '%00', '\u0000',
  '\uFEFF', '\uD800', '\u202E\u202D', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', 'ﷺ'.repeat(50), 'Z͑ͫ̓ͪ̂ͫ̽͏̴̙̤̞͉͚̯̞̠͍A̴̵̜̰͔ͫ͗͢L̠ͨͧͩ͘G̴̻͈͍͔̹̑͗̎̅͛́Ǫ̵̹̻̝̳͂̌̌͘', '<script>alert(1)</script>',
  '${jndi:ldap://x}', '{{7*7}}', 'u:', 'g:', 'u:aaaaaaaaaaaaaaaa', 'g:aaaaaaaaaaaaaaaa', 'null', 'true', '[]', '{}', '[[[[[[[[',
  '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}', '1e309', '-0', 'NaN', '9'.repeat(400), ' ', '%', '%E0%A4%A',
  '%ZZ', '+', '&&&', '===', ',,,,', 'a,b,,c', '["u:aaaaaaaaaaaaaaaa",1,null,{}]',
];

function deepJson(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

forEachDialect(
  'fuzz: malformed requests',
  (t) => {
    it(`answers ${REQUESTS} malformed requests without a 5xx, always with a JSON error body`, async () => {
      const { people } = await teamWithApp(t().testStore.store.db, 2);
      const token = people[0].token;
      const random = prng(0xa71a27);
      const methods = [...methodsByName.keys(), 'chat.nope', '', '..%2F..%2Fetc', 'chat.sendMessage/extra', 'CHAT.SENDMESSAGE'];
      const paramNames = ['to', 'text', 'chat', 'uids', 'members', 'channelId', 'userId', 'attachments', 'serviceml', 'mentions', 'sendAs', 'visibleTo', 'limit', 'before', 'name', 'type', 'showPublicProfile', 'id', 'onBehalfOf', 'token'];

      const value = (): unknown => {
        switch (random.int(9)) {
          case 0: return random.pick(nasty);
          case 1: return 'x'.repeat(random.pick([0, 1, 255, 256, 4096, 70_000]));
          case 2: return deepJson(random.pick([10, 100, 1000, 5000]));
          case 3: return random.int(2) ? random.int(1e9) - 5e8 : random.next();
          case 4: return random.pick([true, false, null, [], {}, [null], { a: { b: { c: [1, 2, 3] } } }]);
          case 5: return Array.from({ length: random.int(40) }, () => random.pick(nasty));
          case 6: return people[random.int(2)].id;
          case 7: return String.fromCharCode(...Array.from({ length: 20 }, () => random.int(0xffff)));
          default: return random.pick(['public', 'private', 'u:' + 'a'.repeat(16), '01ARZ3NDEKTSV4RRFFQ69G5FAV', '100', '-1']);
        }
      };
      const params = () => {
        const out: Record<string, unknown> = {};
        for (let i = random.int(6); i > 0; i--) out[random.pick(paramNames)] = value();
        if (random.int(4) > 0) out.token = random.int(5) ? token : value();
        return out;
      };
      const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? String(v)).replace(LONE_SURROGATE, '\uFFFD');

      /** A request with a body says how long it is, as fetch would. */
      const withBody = (method: string, path: string, contentType: string, body: string | Uint8Array): PlainRequest =>
        ({ method, path, body, headers: { 'content-type': contentType, 'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length } });

      const build = (): PlainRequest => {
        const path = `/v1/${random.pick(methods)}`;
        const p = params();
        switch (random.int(8)) {
          case 0: {
            const query = Object.entries(p).map(([k, v]) => `${k}=${random.int(3) ? encodeURIComponent(asText(v)) : asText(v).replace(/[#\s]/g, '')}`).join('&');
            // As fetch sends it: what a URL may not hold raw, percent-encoded by the URL parser.
            const url = new URL(`${path}?${query}`, t().url);
            return { method: 'GET', path: `${url.pathname}${url.search}` };
          }
          case 1:
            return withBody('POST', path, 'application/x-www-form-urlencoded', new URLSearchParams(Object.entries(p).map(([k, v]) => [k, asText(v)])).toString());
          case 2:
            return withBody('POST', path, 'application/json', JSON.stringify(p));
          case 3: // broken JSON
            return withBody('POST', path, 'application/json', JSON.stringify(p).slice(0, -1 - random.int(5)) + random.pick(['', ',', '"', '\\']));
          case 4: // invalid UTF-8 bytes
            return withBody('POST', path, random.pick(['application/json', 'application/x-www-form-urlencoded']), new Uint8Array(Array.from({ length: 64 }, () => random.int(256))));
          case 5: // odd content types and verbs
            return withBody(random.pick(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']), path, random.pick(['text/plain', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/octet-stream', '']), asText(p));
          case 6: // deeply nested JSON bodies
            return withBody('POST', path, 'application/json', `{"token":${JSON.stringify(token)},"members":${deepJson(random.pick([50, 500, 5000]))}}`);
          default: // repeated keys
            return { method: 'GET', path: `${path}?token=${encodeURIComponent(token)}&to=a&to=b&members=u:x&members=u:y` };
        }
      };

      const http = plainHttp(t().url, 8);
      const problems: string[] = [];
      await inParallel(REQUESTS, 8, async () => {
        const request = build();
        const { status, text } = await http.send(request);
        const shown = `${request.method} ${request.path.slice(0, 120)} ${String(request.body).slice(0, 120)}`;
        if (status >= 500) problems.push(`${status} ${shown} → ${text.slice(0, 200)}`);
        if (status !== 200 && request.method !== 'OPTIONS' && status !== 204) {
          let body: { error?: unknown; description?: unknown } = {};
          try {
            body = JSON.parse(text);
          } catch {
            problems.push(`non-JSON error ${status} for ${shown}: ${text.slice(0, 100)}`);
          }
          if (typeof body.error !== 'string' || typeof body.description !== 'string') problems.push(`error without error/description: ${text.slice(0, 200)}`);
        }
      });
      http.close();
      expect(problems.slice(0, 10)).toEqual([]);

      // Garbage that is not even HTTP gets a JSON 400 and closes only that connection.
      const raw = await RawConnection.open(t().url);
      raw.write('GARBAGE \u0000\u0001 / HTTP/9.9\r\n\r\n');
      const [reply] = await raw.responses(1);
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body).error).toBe('InvalidRequestData');
      raw.close();

      const after = await t().client(token).users.getInfo();
      expect(after.id).toBe(people[0].id);
    }, 120_000);
  },
  { rateLimits: { message: { rate: 1e6, burst: 1e6 }, messagePerRecipient: { rate: 1e6, burst: 1e6 }, read: { rate: 1e6, burst: 1e6 }, channel: { rate: 1e6, burst: 1e6 } } },
);
