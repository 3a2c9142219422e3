import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorRegistry, methodsByName } from '@aviary/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { teamWithApp } from '../helpers/factories.js';
import { inParallel, plainHttp, type PlainAnswer, type PlainRequest } from '../helpers/http.js';
import { forEachDialect } from '../helpers/server.js';
import { prng } from '../helpers/prng.js';

/**
 * Hostile input must cost neither a 5xx nor an answer outside the API's error shape. 10,000 generated
 * requests in all, half per dialect, against a real server — /v1 methods, the client API and the developer methods, signed
 * in — with every part varied: verb, path, query (repeated names, bad percent-encoding), content type,
 * body (deep JSON, long strings within the body limit, broken JSON, bytes that are not UTF-8) and
 * headers (tokens of every shape and length).
 */
const REQUESTS = 5_000;
const CONCURRENCY = 32;
const huge = 1_000_000;

const nasty = [
  "' OR 1=1 --", '../../etc/passwd', '%00', '\u0000', '\uFEFF', '\uD800', '\u202E', '𝔘𝔫𝔦', '<script>alert(1)</script>', '{{7*7}}',
  'u:', 'g:', 'u:aaaaaaaaaaaaaaaa', 'g:aaaaaaaaaaaaaaaa', 'a:aaaaaaaaaaaaaaaa', 'null', 'true', '[]', '{}', '[[[[[[[[', '{"__proto__":{"x":1}}',
  '1e309', '-0', 'NaN', '9'.repeat(400), ' ', '%', '%E0%A4%A', '%ZZ', '+', '&&&', '===', ',,,', 'a,b,,c', '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  'http://a.com:99999/', 'http://a.123/', 'http://xn--a.com/', 'https://[::1:]/', 'javascript:alert(1)', '//x', 'mailto:',
  'openWidget', 'openBrowser', 'desktop', 'mobile', 'sidebar', 'modal', 'pending', 'delivered', 'failed', 'paused',
  '<serviceml><a href="http://a.com:99999/">x</a></serviceml>', '<serviceml><action id="a" type="openBrowser" url="http://a.123/">x</action></serviceml>',
];

const deep = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);
const LONE_SURROGATE = /(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/g;

interface Fixture {
  sessionToken: string;
  appToken: string;
  /** The secret of the app the signed-in person develops. */
  appSecret: string;
  appIds: string[];
  userIds: string[];
  chatIds: string[];
}

/** A loopback listener that accepts every event, so that installs the fuzz makes succeed without the network. */
let sink: Server;
let sinkUrl = '';

beforeAll(async () => {
  sink = createServer((_request, response) => {
    _request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/events`;
});

afterAll(async () => {
  sink.closeAllConnections();
  await new Promise<void>((resolve) => sink.close(() => resolve()));
});

forEachDialect(
  'fuzz: hostile requests to every API',
  (t) => {
    it(`answers ${REQUESTS} generated requests without a 5xx, every error in the API's shape`, async () => {
      const db = t().testStore.store.db;
      const password = 'fuzzing is good for you';
      const { team, app, people, f } = await teamWithApp(db, 3);
      const signedIn = await f.person(team.id, { password });
      const otherApp = await f.app(team.id, signedIn.id, { listenerUrl: sinkUrl });
      await db.updateTable('apps').set({ listener_url: sinkUrl }).where('id', '=', app.id).execute();
      const session = await fetch(`${t().url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: signedIn.email, password }),
      });
      expect(session.status).toBe(200);
      const fixture: Fixture = {
        sessionToken: ((await session.json()) as { sessionToken: string }).sessionToken,
        appToken: people[0].token,
        appSecret: otherApp.secret,
        appIds: [app.id, otherApp.id],
        userIds: [signedIn.id, ...people.map((person) => person.id)],
        chatIds: [people[1].id, signedIn.id],
      };
      const problems = await fuzz(t().url, fixture, 0x5eed + (t().dialect === 'postgres' ? 1 : 0));
      expect(problems.slice(0, 10)).toEqual([]);

      // The server still answers normally afterwards.
      const after = await fetch(`${t().url}/v1/users.getInfo`, { headers: { authorization: `Bearer ${fixture.appToken}` } });
      expect([200, 403]).toContain(after.status);
    }, 120_000);
  },
  {
    rateLimits: {
      message: { rate: 1e6, burst: 1e6 },
      messagePerRecipient: { rate: 1e6, burst: 1e6 },
      read: { rate: 1e6, burst: 1e6 },
      channel: { rate: 1e6, burst: 1e6 },
    },
  },
);

interface Generated extends PlainRequest {
  headers: Record<string, string>;
}

async function fuzz(baseUrl: string, fixture: Fixture, seed: number): Promise<string[]> {
  const generate = requestGenerator(prng(seed), fixture);
  const http = plainHttp(baseUrl, CONCURRENCY);
  const problems: string[] = [];
  try {
    await inParallel(REQUESTS, CONCURRENCY, async () => {
      const generated = generate();
      const where = `${generated.method} ${generated.path.slice(0, 150)} ${describeBody(generated.body)}`;
      try {
        const problem = judge(await http.send(generated), generated.method);
        if (problem) problems.push(`${problem} — ${where}`);
      } catch (error) {
        problems.push(`no answer: ${String(error)} — ${where}`);
      }
    });
  } finally {
    http.close();
  }
  return problems;
}

/** What is wrong with an answer, if anything: a 5xx, or an error not in the API's shape. */
function judge({ status, text }: PlainAnswer, method: string): string | undefined {
  // The fuzz may clear an app's listener URL and then install it: that install fails as designed (502).
  if (status === 502 && text.includes('"InstallFailed"') && text.includes('no event listener URL')) return undefined;
  if (status >= 500) return `${status}: ${text.slice(0, 200)}`;
  if (status < 400 || method === 'HEAD') return undefined;
  let body: { error?: unknown; description?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    return `non-JSON ${status}: ${text.slice(0, 100)}`;
  }
  if (typeof body.error !== 'string' || typeof body.description !== 'string') return `not the error shape: ${text.slice(0, 200)}`;
  const registered = errorRegistry[body.error as keyof typeof errorRegistry];
  if (!registered) return `unregistered error code ${body.error}`;
  if (registered.status !== status) return `${body.error} answered ${status}, registered as ${registered.status}`;
  return undefined;
}

const describeBody = (body: Generated['body']): string =>
  body === undefined ? '' : typeof body === 'string' ? body.slice(0, 150) : `<${body.length} bytes>`;

function requestGenerator(random: ReturnType<typeof prng>, fixture: Fixture) {
  const methodNames = [...methodsByName.keys(), 'chat.nope', 'CHAT.SENDMESSAGE', 'openapi.json'];
  const fieldNames = [
    'token', 'to', 'text', 'chat', 'uids', 'uid', 'members', 'channelId', 'userId', 'attachments', 'serviceml', 'mentions', 'sendAs',
    'visibleTo', 'limit', 'before', 'after', 'name', 'type', 'profileImage', 'purpose', 'id', 'status', 'appId', 'kind', 'url', 'client',
    'messageUid', 'messageUids', 'actionId', 'buttonId', 'button', 'attachmentId', 'sendContext', 'desktopType', 'mobileType',
    'description', 'icon', 'listenerUrl', 'configurationUrl', 'integrations', 'eventId', 'email', 'password', '__proto__', 'constructor',
  ];
  const anId = () => random.pick([...fixture.appIds, ...fixture.userIds, ...fixture.chatIds, 'a:aaaaaaaaaaaaaaaa', 'nope', '%00', 'x'.repeat(101), '..']);

  const value = (depth = 0): unknown => {
    switch (random.int(12)) {
      case 0: return random.pick(nasty);
      case 1: return 'x'.repeat(random.pick([0, 1, 255, 2049, 70_000]));
      case 2: return deepValue(random.pick([10, 40, 1000, 6000])); // as text: a JSON-string parameter
      case 3: return random.int(2) ? random.int(2e9) - 1e9 : random.next() * 1e12;
      case 4: return random.pick([true, false, null, [], {}, [null], { a: { b: [1, 2] } }]);
      case 5: return depth < 2 ? Array.from({ length: random.int(5) }, () => value(depth + 1)) : [];
      case 6: return depth < 2 ? Object.fromEntries(Array.from({ length: random.int(4) }, () => [random.pick(fieldNames), value(depth + 1)])) : {};
      case 7: return anId();
      case 8: return String.fromCharCode(...Array.from({ length: 12 }, () => random.int(0xffff)));
      case 9: return random.pick(['x'.repeat(129), 'as_' + 'A'.repeat(43), fixture.appToken, fixture.sessionToken, 'au_' + '-'.repeat(43)]);
      case 10: return JSON.parse(deepValue(random.pick([5, 33, 40])));
      default: return random.pick([sinkUrl, 'public', 'private', '100', '-1', '0', 'true']);
    }
  };
  const fields = () => {
    const out: Record<string, unknown> = {};
    for (let i = random.int(6); i > 0; i--) out[random.pick(fieldNames)] = value();
    return out;
  };
  const asText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v))).replace(LONE_SURROGATE, '\uFFFD');
  /** Percent-encoded, or as written with only what HTTP cannot carry in a request line encoded. */
  const encode = (v: unknown) => (random.int(4) ? encodeURIComponent(asText(v)) : asText(asText(v).slice(0, 2000)).replace(/[^!-~]|#/gu, (c) => encodeURIComponent(c)));

  /** A path and the verb its route takes (a guess for paths no route serves). */
  const target = (): [string, string] => {
    const developerMethods = methodNames.filter((name) => name.startsWith('deliveries.') || methodsByName.get(name)?.callers.includes('appSecret'));
    switch (random.int(9)) {
      case 0:
      case 1:
      case 2:
        return [`/v1/${random.pick(methodNames)}`, random.pick(['GET', 'POST'])];
      case 3:
      case 4:
        return random.pick<[string, string]>([
          ['/v1/chat.listConversations', 'POST'], ['/v1/chat.fetchMessages', 'POST'], ['/v1/chat.sendFromComposer', 'POST'], ['/v1/apps.listDirectory', 'POST'],
          ['/v1/apps.install', 'POST'], ['/v1/apps.uninstall', 'POST'], ['/v1/apps.disable', 'POST'],
          ['/v1/apps.enable', 'POST'], ['/v1/interactions.pressButton', 'POST'], ['/v1/interactions.runMessageAction', 'POST'],
          ['/v1/interactions.runServicemlAction', 'POST'], ['/v1/interactions.openAttachmentWidget', 'POST'], ['/v1/interactions.runWidgetAction', 'POST'],
        ]);
      case 5:
      case 6:
        // The developer methods (`appId` is among the fields, often one of the fixture's apps).
        return [`/v1/${random.pick(developerMethods)}`, 'POST'];
      case 7:
        return [random.pick(['/api/session', '/widget.js', '/v1/openapi.json', '/', '/v1/', '/api/client/messages', '/%', '/%E0%A4%A', '/v1/%ZZ', `/v1/${'a'.repeat(3000)}`, '/..%2f..%2fetc']), 'POST'];
      default:
        return [`/${Array.from({ length: random.int(4) }, () => encode(random.pick(nasty)).slice(0, 40)).join('/')}`, 'GET'];
    }
  };

  const query = (): string => {
    if (random.int(3) === 0) return '';
    const pairs: string[] = [];
    for (let i = random.int(6); i > 0; i--) {
      const name = random.pick(fieldNames);
      pairs.push(`${name}=${encode(value()).slice(0, 3000)}`);
      if (random.int(4) === 0) pairs.push(`${name}=${encode(value()).slice(0, 3000)}`); // repeated name
    }
    return `?${pairs.join('&')}`;
  };

  const authorization = (): Record<string, string> => {
    switch (random.int(12)) {
      case 0: return {};
      case 1: return { authorization: `Bearer ${fixture.appToken}` };
      case 2: return { authorization: `Bearer ${'A'.repeat(random.pick([129, 4000]))}` };
      case 3: return { authorization: random.pick(['Bearer', 'Bearer ', 'Basic eDp5', `bearer  ${fixture.sessionToken}  `, 'Bearer a b']) };
      case 4: return { cookie: `aviary_session=${random.pick([fixture.sessionToken, 'x'.repeat(300), '', 'a;b'])}` };
      case 5: return { authorization: `Bearer ${fixture.appSecret}` };
      default: return { authorization: `Bearer ${fixture.sessionToken}` };
    }
  };

  return (): Generated => {
    const [route, verb] = target();
    const path = route + query();
    const method = random.int(3) ? verb : random.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']);
    // Signing the fuzz's own session out would leave the rest of the run knocking at a closed door.
    const signOut = method === 'DELETE' && path.startsWith('/api/session');
    const asApp = route.startsWith('/v1/') && random.int(2) === 0;
    const headers: Record<string, string> = signOut ? {} : asApp ? { authorization: `Bearer ${fixture.appToken}` } : authorization();
    if (random.int(10) === 0) headers['x-forwarded-for'] = random.pick(['1.2.3.4', 'junk', '::1, 10.0.0.1', 'x'.repeat(2000)]);
    if (random.int(10) === 0) headers.origin = random.pick(['http://evil.example', 'null', 'http://127.0.0.1:1']);
    if (method === 'GET' || method === 'HEAD') return { path, method, headers };
    const body = fields();
    switch (random.int(12)) {
      case 0:
        return { path, method, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: Object.entries(body).map(([k, v]) => `${k}=${encode(v)}`).join('&') };
      case 1:
        return { path, method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body).slice(0, -1 - random.int(4)) + random.pick(['', ',', '"', '\\']) };
      case 2:
        return { path, method, headers: { ...headers, 'content-type': random.pick(['application/json', 'application/x-www-form-urlencoded']) }, body: new Uint8Array(Array.from({ length: 64 }, () => random.int(256))) };
      case 3:
        return { path, method, headers: { ...headers, 'content-type': random.pick(['text/plain', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/octet-stream', 'application/json; charset=latin1', '']) }, body: asText(body) };
      case 4:
        return { path, method, headers: { ...headers, 'content-type': 'application/json' }, body: `{"${random.pick(fieldNames)}":${deepValue(random.pick([100, 100, 6000, 6000, 40_000]))}}` };
      case 5:
        return { path, method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ ...body, text: 'y'.repeat(random.int(20) === 0 ? huge - 100 : 1000) }) };
      default:
        return { path, method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
    }
  };

  /** JSON text of arrays or objects nested `depth` deep. */
  function deepValue(depth: number): string {
    return random.int(2) ? deep(depth) : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  }
}
