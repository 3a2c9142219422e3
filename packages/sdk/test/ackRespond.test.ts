/**
 * `ctx.ack()` and `ctx.respond()` of the app layer, at `app.handle` with events signed as the service
 * signs them: the answer is the ack's as soon as it is given, a throw after it goes to onError (not to
 * the service), ack twice is an error, and respond() names what is missing. The service side (a real
 * Aviary, the replies themselves) is packages/server/test/apps/responseUrls.test.ts.
 */
import { expect, it } from 'vitest';
import { createApp } from '../src/index.js';
import { appId, appSecret, makeEvent, signEventToken } from './helpers/events.js';

async function delivery(event: unknown) {
  const body = JSON.stringify(event);
  return { headers: { 'x-service-event-token': await signEventToken({}, { content: body }) }, body };
}

function appWithErrors() {
  const errors: unknown[] = [];
  const app = createApp({ appId, appSecret, logger: { warn: () => undefined }, onError: (error) => void errors.push(error) });
  return { app, errors };
}

it('answers with the ack at once, while the handler goes on; a later throw goes to onError', async () => {
  const { app, errors } = appWithErrors();
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  app.command('deploy', async (_event, ctx) => {
    ctx.ack({ text: 'Deploying…' });
    await finished;
    throw new Error('the deploy broke');
  });
  // The answer comes while the handler still waits.
  expect(await app.handle(await delivery(makeEvent('client.slashCommand')))).toMatchObject({ status: 200, body: { text: 'Deploying…' } });
  finish();
  await expect.poll(() => errors.length).toBe(1);
  expect(String(errors[0])).toMatch(/the deploy broke/);
});

it('keeps the return value as the answer without ack, ignores it after ack, and refuses a second ack', async () => {
  const { app, errors } = appWithErrors();
  app.command('deploy', () => ({ text: 'Done' }));
  app.action('approve', (_event, ctx) => {
    ctx.ack();
    ctx.ack({ text: 'again' });
    return { text: 'ignored' };
  });
  expect(await app.handle(await delivery(makeEvent('client.slashCommand')))).toMatchObject({ status: 200, body: { text: 'Done' } });
  expect(await app.handle(await delivery(makeEvent('client.pressButton')))).toMatchObject({ status: 200, body: {} });
  await expect.poll(() => errors.length).toBe(1);
  expect(String(errors[0])).toMatch(/ack\(\) was called twice/);
});

it('respond() without a responseUrl rejects with what is missing', async () => {
  const { app } = appWithErrors();
  let refusal: unknown;
  app.command('deploy', async (_event, ctx) => {
    refusal = await ctx.respond('hello').catch((error: unknown) => error);
  });
  await app.handle(await delivery(makeEvent('client.slashCommand')));
  expect(refusal).toBeInstanceOf(TypeError);
  expect(String(refusal)).toMatch(/carries no responseUrl/);
});
