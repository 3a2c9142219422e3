// Plain node, CommonJS: verifies an event token signed here with node:crypto, and builds a client.
const { createHash, createHmac } = require("node:crypto");
const { AviaryClient, createApp, verifyEventToken } = require('@aviary/sdk');

const secret = 'consumer-secret';
const body = '{"name":"app.uninstall","userId":"u:aaaaaaaaaaaaaaaa"}';
const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = Math.floor(Date.now() / 1000);
const claims = { appId: 'a:consumer', userId: 'u:aaaaaaaaaaaaaaaa', iat: now, exp: now + 600, jti: 'e1', route: 'listener', sha256: createHash('sha256').update(body).digest('base64url') };
const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
const token = `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;

verifyEventToken(token, { appId: "a:consumer", appSecret: secret, route: "listener", content: body }).then((verified) => {
  const client = new AviaryClient({ baseUrl: 'http://127.0.0.1:1', token: 't' });
  const app = createApp({ appId: 'a:consumer', appSecret: secret });
  console.log(JSON.stringify({ userId: verified.userId, sendMessage: typeof client.chat.sendMessage, handle: typeof app.handle }));
});
