import { ApiError } from '../../errors.js';
import type { AppsTable, UsersTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { recordAudit, type AuditActor } from '../audit/record.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { appDeleted } from '../stream/entries.js';
import { lockRows } from '../../store/rows/locks.js';
import { recordStreamEntries } from '../stream/record.js';
import { hashToken, newAppId, newSecret, newUserId } from '../../store/ids.js';
import { lockAppRow } from '../../store/rows/apps.js';
import { insertUser } from '../../store/rows/users.js';
import { sealAppSecret } from '../../store/sealedAppSecrets.js';
import { checkAppFields, type AppFieldInput } from '../appFields.js';
import { emptyIntegrations } from '../integrations.js';
import { requireMayCreateApps } from '../policies/apps.js';
import { recordInstallIn, removeInstallIn, setAppDisabledForTeamIn, setInstallDisabledIn } from './internal/installRows.js';

/** A new app's fields, which createApp checks (core/appFields.ts). */
export interface NewApp extends AppFieldInput {
  name: unknown;
}

/** The developer of a new app: its team is theirs. */
export type Developer = Pick<UsersTable, 'id' | 'team_id'>;

/**
 * Creates an app in its developer's team, when the team's `app_creators` setting lets the developer
 * create apps (PermissionDenied otherwise): every way of creating an app comes through here, and its
 * fields are checked here (InvalidParameter / MissingParameter naming the field). The audit log's
 * `app.created` is written in the same transaction. `actor`: the developer themselves, or the CLI.
 */
export async function createApp(ctx: CommandContext, actor: AuditActor, { developer, ...input }: NewApp & { developer: Developer }): Promise<AppsTable> {
  const fields = checkAppFields(input, 'create');
  const now = ctx.now();
  return runChange(ctx, async (tx) => {
    const found = await tx
      .selectFrom('users as u')
      .innerJoin('teams as t', 't.id', 'u.team_id')
      .select(['u.role', 't.app_creators'])
      .where('u.id', '=', developer.id)
      .where('u.team_id', '=', developer.team_id)
      .executeTakeFirst();
    if (!found) throw new Error(`the developer ${developer.id} of a new app is not in its team ${developer.team_id}`);
    requireMayCreateApps(found, found.app_creators);
    const row = newAppRow(developer, fields, now);
    // Stored sealed (store/sealedAppSecrets.ts); the caller gets the secret itself, as a read would give it.
    await tx.insertInto('apps').values({ ...row, secret: sealAppSecret(tx, row.secret) }).execute();
    await recordAudit(tx, { teamId: row.team_id, actor, at: now, action: 'app.created', target: { kind: 'app', id: row.id }, details: { name: row.name } });
    return row;
  });
}

function newAppRow(developer: Developer, fields: ReturnType<typeof checkAppFields>, now: number): AppsTable {
  return {
    id: newAppId(),
    team_id: developer.team_id,
    developer_id: developer.id,
    name: fields.name!,
    description: fields.description ?? '',
    icon: fields.icon ?? null,
    secret: newSecret('as_'),
    previous_secret: null,
    previous_secret_until: null,
    listener_url: fields.listenerUrl ?? null,
    configuration_url: fields.configurationUrl ?? null,
    integrations: JSON.stringify(fields.integrations ?? emptyIntegrations()),
    bot_user_id: null,
    allowed_origins: JSON.stringify(fields.allowedOrigins ?? []),
    flock_naming: fields.flockNaming ? 1 : 0,
    event_subscriptions: fields.eventSubscriptions ? JSON.stringify(fields.eventSubscriptions) : null,
    disabled_by_team: 0,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Changes the fields given (checked as createApp checks them); the others stay. `actor`: the app's
 * developer (or a team admin) whose access the handler checked, or the CLI.
 */
export async function updateApp(ctx: CommandContext, actor: AuditActor, { appId, ...changes }: AppFieldInput & { appId: string }): Promise<AppsTable> {
  const fields = checkAppFields(changes, 'update');
  const columns = {
    name: fields.name,
    description: fields.description,
    icon: fields.icon,
    listener_url: fields.listenerUrl,
    configuration_url: fields.configurationUrl,
    integrations: fields.integrations === undefined ? undefined : JSON.stringify(fields.integrations),
    allowed_origins: fields.allowedOrigins === undefined ? undefined : JSON.stringify(fields.allowedOrigins),
    flock_naming: fields.flockNaming === undefined ? undefined : Number(fields.flockNaming),
    event_subscriptions: fields.eventSubscriptions === undefined ? undefined : fields.eventSubscriptions && JSON.stringify(fields.eventSubscriptions),
  };
  const set = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
  return runChange(ctx, async (tx) => {
    await lockApp(tx, appId);
    await tx.updateTable('apps').set({ ...set, updated_at: ctx.now() }).where('id', '=', appId).execute();
    return tx.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirstOrThrow();
  });
}

/** How long a rotated-out secret still signs a second token on each event (docs/reference/event-tokens.md). */
export const SECRET_GRACE_MS = 24 * 3_600_000;

/**
 * A new app secret: from now on events are signed with it and, for `SECRET_GRACE_MS`, also with the old
 * one (a second header), so that a listener holding either secret accepts them while it is updated. A
 * listen connection opened with the old secret closes at once. The audit log's `app.secretRotated` is
 * written in the same transaction.
 */
export async function rotateAppSecret(ctx: CommandContext, actor: AuditActor, { appId }: { appId: string }): Promise<{ secret: string; previousSecretUntil: number }> {
  const secret = newSecret('as_');
  const now = ctx.now();
  const previousSecretUntil = now + SECRET_GRACE_MS;
  await runChange(ctx, async (tx, effects) => {
    // Two rotations at once take turns: the second's old secret is the first's new one, which stays valid for the grace.
    const { secret: previous, team_id: teamId } = await lockApp(tx, appId);
    await tx
      .updateTable('apps')
      .set({ secret: sealAppSecret(tx, secret), previous_secret: sealAppSecret(tx, previous), previous_secret_until: previousSecretUntil, updated_at: now })
      .where('id', '=', appId)
      .execute();
    // Listen connections opened with the old secret end now; events still carry it for the grace period.
    effects.add({ kind: 'credentialsEnded', notice: { appId } });
    await recordAudit(tx, { teamId, actor, at: now, action: 'app.secretRotated', target: { kind: 'app', id: appId } });
  });
  return { secret, previousSecretUntil };
}

/**
 * Deletes an app and everything that could still act for it or be delivered to it: every token, every
 * install, its events and their attempts. Its bot user stays, deactivated, so that the bot's old
 * messages keep a sender. The team hears of it on the stream (`app.deleted`), and the audit log records
 * it (`app.deleted`) in the same transaction.
 */
export async function deleteApp(ctx: CommandContext, actor: AuditActor, { appId }: { appId: string }): Promise<void> {
  const now = ctx.now();
  await runChange(ctx, async (tx, effects) => {
    // PostgreSQL: the app's row is locked first, so that no event or install naming it is written from
    // now on (their writers hold the row: store/rows/apps.ts) and one being written is waited for, then
    // deleted below with the rest.
    const app = await lockApp(tx, appId);
    await tx.deleteFrom('app_tokens').where('app_id', '=', appId).execute();
    await tx.deleteFrom('installs').where('app_id', '=', appId).execute();
    // PostgreSQL: a delivery recording an attempt at this moment would add one after the attempts are
    // deleted and before the events are (a foreign key refusal, a 500). Locking the events first makes it
    // wait, then find its event gone; SQLite's one writer never interleaves so.
    await lockRows(tx, 'events', 'app_id', [appId], 'update');
    await tx.deleteFrom('event_attempts').where('app_id', '=', appId).execute();
    await tx.deleteFrom('events').where('app_id', '=', appId).execute();
    if (app.bot_user_id) await tx.updateTable('users').set({ deactivated_at: now }).where('id', '=', app.bot_user_id).execute();
    await tx.deleteFrom('apps').where('id', '=', appId).execute();
    await recordStreamEntries(tx, effects, app.team_id, [appDeleted(appId)], now);
    effects.add({ kind: 'credentialsEnded', notice: { appId } });
    await recordAudit(tx, { teamId: app.team_id, actor, at: now, action: 'app.deleted', target: { kind: 'app', id: appId }, details: { name: app.name } });
  });
}

/**
 * The bot user's name: "<App name> Bot", but an app already called "… Bot" is not named "… Bot Bot".
 */
export function botNameOf(appName: string): { first_name: string; last_name: string } {
  const named = /^(.*\S)\s+(bot)$/i.exec(appName.trim());
  return named ? { first_name: named[1]!, last_name: named[2]! } : { first_name: appName, last_name: 'Bot' };
}

/**
 * Enables the app's bot (creating its user "<App name> Bot" the first time, see botNameOf) and issues a
 * new bot token; any earlier bot token stops working. The audit log's `app.botEnabled` is written in the
 * same transaction. `actor`: whoever's access to the app's credentials the handler checked, or the CLI.
 */
export async function enableBot(ctx: CommandContext, actor: AuditActor, { appId }: { appId: string }): Promise<{ botUserId: string; botToken: string }> {
  const now = ctx.now();
  return runChange(ctx, async (tx) => {
    // Two enables at once take turns: the second finds the first's bot user, where each made one.
    const app = await lockApp(tx, appId);
    let botUserId = app.bot_user_id;
    if (!botUserId) {
      botUserId = newUserId();
      await insertUser(tx, { id: botUserId, team_id: app.team_id, ...botNameOf(app.name), profile_image: app.icon, bot_app_id: app.id, created_at: now });
      await tx.updateTable('apps').set({ bot_user_id: botUserId, updated_at: now }).where('id', '=', appId).execute();
    }
    const botToken = await replaceBotToken(tx, appId, botUserId, now);
    await recordAudit(tx, { teamId: app.team_id, actor, at: now, action: 'app.botEnabled', target: { kind: 'app', id: appId } });
    return { botUserId, botToken };
  });
}

/**
 * Issues a new token to the app's bot, which must be enabled already (BotNotEnabled otherwise); the
 * earlier one stops working. The audit log's `app.botTokenRegenerated` is written in the same transaction.
 */
export async function regenerateBotToken(ctx: CommandContext, actor: AuditActor, { appId }: { appId: string }): Promise<{ botUserId: string; botToken: string }> {
  const now = ctx.now();
  return runChange(ctx, async (tx) => {
    const app = await lockApp(tx, appId);
    if (app.bot_user_id === null) throw new ApiError('BotNotEnabled', 'The app has no bot yet; enable it with apps.enableBot.');
    const botToken = await replaceBotToken(tx, appId, app.bot_user_id, now);
    await recordAudit(tx, { teamId: app.team_id, actor, at: now, action: 'app.botTokenRegenerated', target: { kind: 'app', id: appId } });
    return { botUserId: app.bot_user_id, botToken };
  });
}

/** The bot's one token: a new one, the earlier one deleted. */
async function replaceBotToken(tx: Tx, appId: string, botUserId: string, now: number): Promise<string> {
  await tx.deleteFrom('app_tokens').where('app_id', '=', appId).where('kind', '=', 'bot').execute();
  const botToken = newSecret('ab_');
  await tx.insertInto('app_tokens').values({ token_hash: hashToken(botToken), app_id: appId, user_id: botUserId, kind: 'bot', created_at: now }).execute();
  return botToken;
}

/**
 * Records an install with the user's token for the app (by default a new one); any earlier token of
 * theirs for the app is revoked, and a re-install starts enabled. The install row is written first,
 * as an upsert: it then holds the row's lock, so that two installs of the app by the same person at
 * once (a double click) run one after the other, and the later one revokes the earlier one's token.
 */
export async function recordInstall(ctx: CommandContext, installer: Pick<UsersTable, 'id'>, { appId, token }: { appId: string; token?: string }): Promise<{ token: string }> {
  const now = ctx.now();
  return runChange(ctx, (tx) => recordInstallIn(tx, { appId, userId: installer.id, now, token }));
}

/** Removes the person's install of the app and revokes their token for it. Returns whether there was one. */
export async function removeInstall(ctx: CommandContext, installer: Pick<UsersTable, 'id'>, { appId }: { appId: string }): Promise<boolean> {
  return runChange(ctx, (tx) => removeInstallIn(tx, { appId, userId: installer.id }));
}

/** Returns whether the person had installed the app. */
export async function setInstallDisabled(ctx: CommandContext, installer: Pick<UsersTable, 'id'>, { appId, disabled }: { appId: string; disabled: boolean }): Promise<boolean> {
  return runChange(ctx, (tx) => setInstallDisabledIn(tx, { appId, userId: installer.id, disabled }));
}

/** The team's switch for an app; `actor`: the team admin the handler checked, or the CLI. */
export async function setAppDisabledForTeam(ctx: CommandContext, actor: AuditActor, { appId, disabled }: { appId: string; disabled: boolean }): Promise<void> {
  const now = ctx.now();
  await runChange(ctx, (tx) => setAppDisabledForTeamIn(tx, { appId, disabled, now }));
}

/**
 * The app's row, locked for the change (PostgreSQL: `for update`, so that changes of one app take turns
 * and one that comes after a deletion finds it gone); UnknownApp when it is gone (deleted meanwhile, by
 * another request or another process), where the change failed with a 500.
 */
async function lockApp(tx: Tx, appId: string): Promise<AppsTable> {
  const app = await lockAppRow(tx, appId);
  if (!app) throw new ApiError('UnknownApp', `There is no app "${appId}": it was deleted.`);
  return app;
}
