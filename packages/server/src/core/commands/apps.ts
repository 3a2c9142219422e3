import type { AppsTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { hashToken, newAppId, newSecret, newUserId } from '../ids.js';

export interface NewApp {
  teamId: string;
  developerId: string;
  name: string;
  description?: string;
  icon?: string | null;
  listenerUrl?: string | null;
  configurationUrl?: string | null;
  integrations?: unknown;
}

export async function createApp(db: Db, input: NewApp & { now: number }): Promise<AppsTable> {
  const row: AppsTable = {
    id: newAppId(),
    team_id: input.teamId,
    developer_id: input.developerId,
    name: input.name,
    description: input.description ?? '',
    icon: input.icon ?? null,
    secret: newSecret('as_'),
    listener_url: input.listenerUrl ?? null,
    configuration_url: input.configurationUrl ?? null,
    integrations: JSON.stringify(input.integrations ?? {}),
    bot_user_id: null,
    disabled_by_team: 0,
    created_at: input.now,
    updated_at: input.now,
  };
  await db.insertInto('apps').values(row).execute();
  return row;
}

/**
 * Enables the app's bot (creating its user "<App name> Bot" the first time) and issues a new bot token;
 * any earlier bot token stops working.
 */
export async function enableBot(db: Db, appId: string, now: number): Promise<{ botUserId: string; botToken: string }> {
  return db.transaction().execute(async (tx) => {
    const app = await tx.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirstOrThrow();
    let botUserId = app.bot_user_id;
    if (!botUserId) {
      botUserId = newUserId();
      await tx
        .insertInto('users')
        .values({
          id: botUserId, team_id: app.team_id, email: null, first_name: app.name, last_name: 'Bot', role: 'user',
          timezone: '+00:00', profile_image: app.icon, password_hash: null, bot_app_id: app.id, deactivated_at: null, created_at: now,
        })
        .execute();
      await tx.updateTable('apps').set({ bot_user_id: botUserId, updated_at: now }).where('id', '=', appId).execute();
    }
    await tx.deleteFrom('app_tokens').where('app_id', '=', appId).where('kind', '=', 'bot').execute();
    const botToken = newSecret('ab_');
    await tx
      .insertInto('app_tokens')
      .values({ token_hash: hashToken(botToken), app_id: appId, user_id: botUserId, kind: 'bot', created_at: now })
      .execute();
    return { botUserId, botToken };
  });
}

/** Records an install and issues the user's token for the app (any earlier one is revoked). */
export async function recordInstall(db: Db, input: { appId: string; userId: string; now: number }): Promise<{ token: string }> {
  return db.transaction().execute(async (tx) => {
    await tx.deleteFrom('app_tokens').where('app_id', '=', input.appId).where('user_id', '=', input.userId).where('kind', '=', 'user').execute();
    await tx.deleteFrom('installs').where('app_id', '=', input.appId).where('user_id', '=', input.userId).execute();
    await tx.insertInto('installs').values({ app_id: input.appId, user_id: input.userId, disabled_by_user: 0, created_at: input.now }).execute();
    const token = newSecret('au_');
    await tx
      .insertInto('app_tokens')
      .values({ token_hash: hashToken(token), app_id: input.appId, user_id: input.userId, kind: 'user', created_at: input.now })
      .execute();
    return { token };
  });
}

/** Removes an install and revokes the user's token for the app. Returns whether there was one. */
export async function removeInstall(db: Db, input: { appId: string; userId: string }): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    await tx.deleteFrom('app_tokens').where('app_id', '=', input.appId).where('user_id', '=', input.userId).where('kind', '=', 'user').execute();
    const result = await tx.deleteFrom('installs').where('app_id', '=', input.appId).where('user_id', '=', input.userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

export async function setInstallDisabled(db: Db, input: { appId: string; userId: string; disabled: boolean }): Promise<void> {
  await db
    .updateTable('installs')
    .set({ disabled_by_user: input.disabled ? 1 : 0 })
    .where('app_id', '=', input.appId)
    .where('user_id', '=', input.userId)
    .execute();
}

export async function setAppDisabledForTeam(db: Db, input: { appId: string; disabled: boolean; now: number }): Promise<void> {
  await db.updateTable('apps').set({ disabled_by_team: input.disabled ? 1 : 0, updated_at: input.now }).where('id', '=', input.appId).execute();
}
