import { expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { hookCast, postHook } from './hookCast.js';

/** The webhooks made through an app, as its developer sees them in the dashboard: apps.listWebhooks and apps.revokeWebhook. */
forEachDialect('an app’s incoming webhooks', (t) => {
  it('lists the live webhooks made with the app’s tokens to its developer, and revokes one so that its URL answers 404', async () => {
    // Alice develops the app (teamWithApp); Bob makes a webhook with his token of it, and one with his session.
    const c = await hookCast(t());
    const throughApp = await c.bob.client.webhooks.create({ channel: c.channelId, name: 'Deploys' });
    const ofBobAlone = (await c.bobSession('webhooks.create', { channel: c.channelId, name: 'Bob’s own' })).body;

    const listed = await c.aliceSession('apps.listWebhooks', { appId: c.app.id });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.webhooks).toEqual([throughApp.webhook]);
    // Not the developer: as for an app that does not exist.
    expect((await c.bobSession('apps.listWebhooks', { appId: c.app.id })).body).toMatchObject({ error: 'UnknownApp' });

    expect((await c.aliceSession('apps.revokeWebhook', { appId: c.app.id, webhook: throughApp.webhook.id })).status).toBe(200);
    expect((await postHook(t().url, throughApp.path, JSON.stringify({ text: 'after' }))).status).toBe(404);
    expect((await c.aliceSession('apps.listWebhooks', { appId: c.app.id })).body.webhooks).toEqual([]);
    // Revoked already, or not made through the app: no such webhook of the app's.
    for (const webhook of [throughApp.webhook.id, ofBobAlone.webhook.id]) {
      expect((await c.aliceSession('apps.revokeWebhook', { appId: c.app.id, webhook })).body).toMatchObject({ error: 'UnknownWebhook', parameter: 'webhook' });
    }
    expect((await postHook(t().url, ofBobAlone.path, JSON.stringify({ text: 'still works' }))).status).toBe(200);
  });
});
