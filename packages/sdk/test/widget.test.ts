import { describe, expect, it } from 'vitest';
import { eventTokenLifetimeSeconds, type WidgetEvent } from '@aviary/protocol';
import { EventTokenError, parseWidgetRequest, verifyWidgetRequest, WidgetRequestError } from '../src/index.js';
import { appId, appSecret, makeEvent, otherUserId, signEventToken } from './helpers/events.js';

const issuedAt = Date.UTC(2024, 5, 1, 9, 0, 0);
const widgetLifetime = eventTokenLifetimeSeconds.widget;

/** Builds the URL the way the service does (docs/reference/widgets.md): the configured URL plus four parameters. */
function widgetUrl(params: Record<string, string | undefined>, configured = 'https://app.example.com/widget?board=7'): URL {
  const url = new URL(configured);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

/** The four parameters, with a widget token for exactly this `serviceEvent` (claims may be overridden). */
async function serviceParams(event: WidgetEvent, claims: Record<string, unknown> = {}) {
  const serviceEvent = JSON.stringify(event);
  return {
    serviceEvent,
    serviceEventToken: await signEventToken(
      { userId: event.userId, exp: issuedAt / 1000 + widgetLifetime, route: 'widget', ...claims },
      { nowMs: issuedAt, content: serviceEvent },
    ),
    serviceClient: 'desktop',
    serviceWidgetType: 'modal',
  };
}

function errorOf(run: () => unknown): WidgetRequestError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WidgetRequestError);
    return error as WidgetRequestError;
  }
  throw new Error('expected a WidgetRequestError');
}

describe('parseWidgetRequest', () => {
  it('reads the event, token, client and widget type of a widget URL', async () => {
    const event = makeEvent('client.openAttachmentWidget');
    const params = await serviceParams(event);
    const url = widgetUrl({ ...params, serviceClient: 'ios', serviceWidgetType: 'attachment' });
    expect(url.search).toContain('serviceEvent=%7B%22name%22');
    const expected = { event, token: params.serviceEventToken, client: 'ios', widgetType: 'attachment' };
    expect(parseWidgetRequest(url)).toEqual(expected);
    expect(parseWidgetRequest(url.href)).toEqual(expected);
    expect(parseWidgetRequest(`${url.pathname}${url.search}`)).toEqual(expected);
  });

  it.each(['serviceEvent', 'serviceEventToken', 'serviceClient', 'serviceWidgetType'])('names a missing %s', async (parameter) => {
    const params = await serviceParams(makeEvent('client.slashCommand'));
    const error = errorOf(() => parseWidgetRequest(widgetUrl({ ...params, [parameter]: undefined })));
    expect(error.parameter).toBe(parameter);
    expect(error.message).toBe(`the widget URL has no ${parameter} parameter`);
    expect(errorOf(() => parseWidgetRequest(widgetUrl({ ...params, [parameter]: '' }))).parameter).toBe(parameter);
  });

  it('explains a malformed parameter', async () => {
    const params = await serviceParams(makeEvent('client.widgetAction'));
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ serviceEvent: '{"name":' }, 'serviceEvent', /^serviceEvent is not valid JSON/],
      [{ serviceEvent: '"client.widgetAction"' }, 'serviceEvent', /must be a JSON object/],
      [{ serviceEvent: JSON.stringify(makeEvent('app.install')) }, 'serviceEvent', /names "app.install"; a widget receives only client\.pressButton/],
      [{ serviceEvent: JSON.stringify({ name: 'client.widgetAction' }) }, 'serviceEvent', /has no userId/],
      [{ serviceClient: 'windows' }, 'serviceClient', /serviceClient must be one of desktop, ios, android; got "windows"/],
      [{ serviceWidgetType: 'popup' }, 'serviceWidgetType', /serviceWidgetType must be one of modal, sidebar, attachment/],
    ];
    for (const [changes, parameter, message] of cases) {
      const error = errorOf(() => parseWidgetRequest(widgetUrl({ ...params, ...changes })));
      expect(error.parameter).toBe(parameter);
      expect(error.message).toMatch(message);
    }
  });
});

describe('verifyWidgetRequest', () => {
  it('verifies the token against the app and the event’s user, for the widget token’s lifetime', async () => {
    const event = makeEvent('client.pressButton', { button: 'chatTabButton' });
    const url = widgetUrl(await serviceParams(event, { jti: 'evt-widget' }));
    const verified = await verifyWidgetRequest(url, { appId, appSecret, now: () => issuedAt + 23 * 3_600_000 });
    expect(verified).toMatchObject({ event, client: 'desktop', widgetType: 'modal', claims: { appId, userId: event.userId, jti: 'evt-widget' } });
    await expect(verifyWidgetRequest(url, { appId, appSecret, now: () => issuedAt + 25 * 3_600_000 })).rejects.toMatchObject({
      reason: 'expired',
    });
  });

  it('refuses a token for another user, another app or another secret', async () => {
    const event = makeEvent('client.servicemlAction');
    const now = () => issuedAt;
    const otherUser = widgetUrl(await serviceParams(event, { userId: otherUserId }));
    await expect(verifyWidgetRequest(otherUser, { appId, appSecret, now })).rejects.toMatchObject({ reason: 'userId' });
    const url = widgetUrl(await serviceParams(event));
    await expect(verifyWidgetRequest(url, { appId: 'a:otherapp00000001', appSecret, now })).rejects.toMatchObject({ reason: 'appId' });
    await expect(verifyWidgetRequest(url, { appId, appSecret: 'guessed', now })).rejects.toBeInstanceOf(EventTokenError);
  });

  it('refuses a serviceEvent edited after signing: another chat, another message', async () => {
    const event = makeEvent('client.openAttachmentWidget');
    const params = await serviceParams(event);
    const now = () => issuedAt;
    await expect(verifyWidgetRequest(widgetUrl(params), { appId, appSecret, now })).resolves.toMatchObject({ event });
    for (const edited of [{ ...event, chat: 'g:eeeeeeeeeeeeeeee' }, { ...event, messageUid: '01JZZZZZZZZZZZZZZZZZZZZZZZ' }]) {
      const url = widgetUrl({ ...params, serviceEvent: JSON.stringify(edited) });
      await expect(verifyWidgetRequest(url, { appId, appSecret, now })).rejects.toMatchObject({ reason: 'digest' });
    }
  });

  it('refuses a listener token, even one signed for the very serviceEvent', async () => {
    const event = makeEvent('client.slashCommand');
    const params = await serviceParams(event, { route: 'listener' });
    await expect(verifyWidgetRequest(widgetUrl(params), { appId, appSecret, now: () => issuedAt })).rejects.toMatchObject({ reason: 'route' });
  });

  it('accepts a browser token', async () => {
    const event = makeEvent('client.widgetAction');
    const params = await serviceParams(event, { route: 'browser' });
    await expect(verifyWidgetRequest(widgetUrl(params), { appId, appSecret, now: () => issuedAt })).resolves.toMatchObject({ claims: { route: 'browser' } });
  });

  it('reports a malformed URL before looking at the token', async () => {
    const params = await serviceParams(makeEvent('client.widgetAction'));
    await expect(verifyWidgetRequest(widgetUrl({ ...params, serviceClient: undefined }), { appId, appSecret })).rejects.toBeInstanceOf(
      WidgetRequestError,
    );
  });
});
