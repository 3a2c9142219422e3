import { expect, it } from 'vitest';
import { deleteApp, enableBot, regenerateBotToken, rotateAppSecret, updateApp } from '../../src/core/commands/apps.js';
import { cliActor } from '../../src/core/audit/record.js';
import { ApiError } from '../../src/errors.js';
import { onPostgres } from '../helpers/pgLocks.js';
import { forEachDialect } from '../helpers/server.js';

/**
 * Changes of one app that meet: each takes the app's row first, so they take turns, and one that comes
 * after the app's deletion is refused as UnknownApp (a change whose app was deleted between the
 * developer's access check and its own write failed with a 500).
 */
forEachDialect('a change of an app deleted meanwhile', (t) => {
  it('is refused as UnknownApp, whichever change it is', async () => {
    const team = await t().f.team();
    const developer = await t().f.person(team.id);
    const app = await t().f.app(team.id, developer.id);
    await deleteApp(t().server.ctx, cliActor, { appId: app.id });
    const ctx = t().server.ctx;
    const changes = [
      () => updateApp(ctx, cliActor, { appId: app.id, name: 'Renamed' }),
      () => rotateAppSecret(ctx, cliActor, { appId: app.id }),
      () => enableBot(ctx, cliActor, { appId: app.id }),
      () => regenerateBotToken(ctx, cliActor, { appId: app.id }),
      () => deleteApp(ctx, cliActor, { appId: app.id }),
    ];
    for (const change of changes) {
      const refusal = await change().then(() => undefined, (error: unknown) => error);
      expect(refusal).toBeInstanceOf(ApiError);
      expect(refusal).toMatchObject({ code: 'UnknownApp' });
    }
  });
});

/**
 * PostgreSQL: the bot of an app enabled twice at once (a double-click in the dashboard). Each saw no bot
 * yet and made a bot user; the second's replaced the first's on the app, and the first's stayed, an
 * active user of an app that no longer knew it (never deactivated when the app is deleted). The test holds
 * both at the app's row (a share lock from a session of its own: helpers/pgLocks.ts).
 */
onPostgres('an app’s bot enabled twice at once', (suite) => {
  const t = () => suite().t;

  it('makes one bot user, and both answers name it', async () => {
    const team = await t().f.team();
    const developer = await t().f.person(team.id);
    const app = await t().f.app(team.id, developer.id);
    const answers: string[] = [];
    const enable = () => async () => answers.push((await enableBot(t().server.ctx, cliActor, { appId: app.id })).botUserId);
    const outcome = await suite().holder.interleave(
      { statement: 'select 1 from apps where id = $1 for share', params: [app.id], waitsAt: /^(select \* from "apps"|update "apps")/ },
      enable(),
      enable(),
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    const bots = await t().testStore.store.db.selectFrom('users').select('id').where('bot_app_id', '=', app.id).execute();
    expect(bots).toHaveLength(1);
    expect(answers).toEqual([bots[0]!.id, bots[0]!.id]);
  });
});
