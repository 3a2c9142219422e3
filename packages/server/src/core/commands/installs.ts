import type { AppInstallEvent, AppUninstallEvent } from '@aviary/protocol';
import { byPerson, recordAudit, type AuditActor } from '../audit/record.js';
import type { AdminActor } from './administerPeople.js';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { enqueueEvent } from '../../events/outbox/enqueue.js';
import { deliverSynchronously, type SyncDeliveryResult } from '../../events/delivery/sync.js';
import { holdApp } from '../../store/rows/apps.js';
import type { AppsTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { CoreContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { appDisabledBy } from '../policies/apps.js';
import { whyNotInstallable } from '../policies/installability.js';
import { appInstalled, appSwitched, appUninstalled } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import { holdAdminStanding } from './internal/personRows.js';
import { claimInstall, newUserToken, recordInstallIn, releaseInstallClaim, removeInstallIn, setAppDisabledForTeamIn, setInstallDisabledIn } from './internal/installRows.js';

/** Installing calls the listener and enqueues events; the CLI gives exactly this, without a server. */
export type InstallContext = Pick<CoreContext, 'db' | 'now' | 'events' | 'afterCommit' | 'requestId'> & { config: Pick<Config, 'installTimeoutMs'> };

interface InstallTarget {
  appId: string;
  userId: string;
}

/**
 * Installs an app for a person (docs/reference/events.md, app.install): the token is made first and sent in `app.install`
 * (as `token` and `userToken`); only when the listener answers HTTP 200 in time are the install and
 * the token stored. Otherwise nothing is, the token never works, and InstallFailed says what the
 * listener did. A re-install replaces the earlier token. One install of the app for the person runs at a
 * time (InstallInProgress otherwise), so the token stored is the last one the app was sent. The token is
 * returned for the admin CLI; the client API never shows it to the person.
 */
export async function installApp(ctx: InstallContext, actor: AuditActor, input: InstallTarget): Promise<{ token: string }> {
  const app = await appInUsersTeam(ctx.db, input);
  // Its token would only ever answer AppDisabled, and the listener would learn of a person for nothing.
  // Only the team's switch counts: a re-install starts enabled for the person.
  if (appDisabledBy({ disabledByTeam: app.disabled_by_team, disabledByUser: null })) {
    throw new ApiError('AppDisabled', `A team admin has disabled "${app.name}" for the whole team; it cannot be installed until they enable it.`, { disabledBy: 'team' });
  }
  const notInstallable = whyNotInstallable(app, ctx.events.tunnels.has(app.id));
  if (notInstallable !== undefined) throw new ApiError('InstallFailed', `"${app.name}" cannot be installed yet: ${notInstallable}.`);
  const claim = await claimInstall(ctx.db, { ...input, now: ctx.now(), expiresAt: ctx.now() + ctx.config.installTimeoutMs + CLAIM_SLACK_MS });
  if (claim === undefined) {
    throw new ApiError('InstallInProgress', `An install of "${app.name}" for this person is already under way; try again once it has finished.`);
  }
  try {
    return await sendAndRecordInstall(ctx, actor, input, app);
  } finally {
    await releaseInstallClaim(ctx.db, { ...input, claim });
  }
}

/**
 * How long a claim outlives the listener's time to answer: the transaction that stores the install. A
 * claim whose process died lapses then, and the next install takes it over.
 */
const CLAIM_SLACK_MS = 10_000;

async function sendAndRecordInstall(ctx: InstallContext, actor: AuditActor, input: InstallTarget, app: AppsTable): Promise<{ token: string }> {
  const token = newUserToken();
  const event: AppInstallEvent = { name: 'app.install', userId: input.userId, token, userToken: token };
  const delivery = await deliverSynchronously(ctx, { ...input, event: { ...event }, timeoutMs: ctx.config.installTimeoutMs });
  if (!delivery.ok && delivery.internalAddress) {
    // The server's own policy, not the listener: an administrator can change it, nobody else.
    throw new ApiError('InstallFailed', `"${app.name}" was not installed: ${delivery.description}. Nothing was sent to it.`);
  }
  // An app that did not subscribe to app.install is installed without being asked (nor given the token).
  const unasked = !delivery.ok && delivery.reason === 'not_subscribed';
  if (!unasked && (!delivery.ok || delivery.status !== 200)) {
    throw new ApiError('InstallFailed', `"${app.name}" was not installed: ${whatTheListenerDid(delivery, ctx.config.installTimeoutMs)}. Nothing was installed; try again later or tell the app's developer.`);
  }
  return runChange(ctx, async (tx, effects) => {
    // Deleted while its listener answered app.install: there is nothing left to install.
    if (!(await holdApp(tx, app.id))) throw unknownApp(input.appId);
    const now = ctx.now();
    const installed = await recordInstallIn(tx, { ...input, token, now });
    await recordStreamEntries(tx, effects, app.team_id, [appInstalled(app.id, input.userId)], now);
    await recordAudit(tx, { teamId: app.team_id, actor, at: now, action: 'app.installed', target: { kind: 'app', id: app.id }, ...forWhom(actor, input.userId) });
    return installed;
  });
}

/** Revokes the person's token and removes the install; `app.uninstall` commits with them, then goes out. */
export async function uninstallApp(ctx: InstallContext, actor: AuditActor, input: InstallTarget): Promise<void> {
  const app = await appInUsersTeam(ctx.db, input);
  const event: AppUninstallEvent = { name: 'app.uninstall', userId: input.userId };
  await runChange(ctx, async (tx, effects) => {
    if (!(await removeInstallIn(tx, input))) throw notInstalled(app);
    const now = ctx.now();
    const enqueued = await enqueueEvent(tx, { ...input, event: { ...event } }, now);
    if (enqueued) effects.add({ kind: 'deliverEvents', appId: input.appId, eventId: enqueued.eventId });
    await recordStreamEntries(tx, effects, app.team_id, [appUninstalled(app.id, input.userId)], now);
    await recordAudit(tx, { teamId: app.team_id, actor, at: now, action: 'app.uninstalled', target: { kind: 'app', id: app.id }, ...forWhom(actor, input.userId) });
  });
}

/** The audit log names the person an install was for when someone else (the CLI) acted. */
const forWhom = (actor: AuditActor, userId: string): { details?: { userId: string } } => (actor.userId === userId ? {} : { details: { userId } });

/** The person's own switch: while disabled, calls with their token for the app get AppDisabled (user). */
export async function setAppDisabledByUser(ctx: CoreContext, person: Pick<UsersTable, 'id'>, { appId, disabled }: { appId: string; disabled: boolean }): Promise<void> {
  const input = { appId, userId: person.id, disabled };
  const app = await appInUsersTeam(ctx.db, input);
  await runChange(ctx, async (tx, effects) => {
    if (!(await setInstallDisabledIn(tx, input))) throw notInstalled(app);
    await recordStreamEntries(tx, effects, app.team_id, [appSwitched(app.id, { by: 'user', ...input })], ctx.now());
  });
}

/** A team admin's switch for everyone: while disabled, every token of the app gets AppDisabled (team). */
export async function setAppDisabledByTeam(ctx: CoreContext, { admin, address }: AdminActor, { appId, disabled }: { appId: string; disabled: boolean }): Promise<void> {
  const app = await appInUsersTeam(ctx.db, { appId, userId: admin.id });
  if (admin.role !== 'admin') throw new ApiError('PermissionDenied', 'Only a team admin may disable or enable an app for the whole team.');
  await runChange(ctx, async (tx, effects) => {
    await holdAdminStanding(tx, admin);
    const now = ctx.now();
    await setAppDisabledForTeamIn(tx, { appId, disabled, now });
    await recordStreamEntries(tx, effects, app.team_id, [appSwitched(app.id, { by: 'team', disabled, userId: admin.id })], now);
    await recordAudit(tx, { ...byPerson(admin, address), at: now, action: disabled ? 'app.disabledForTeam' : 'app.enabledForTeam', target: { kind: 'app', id: appId } });
  });
}

/** The app, when it belongs to the person's team; apps of other teams do not exist for them. */
async function appInUsersTeam(db: Db, input: InstallTarget): Promise<AppsTable> {
  const app = await db
    .selectFrom('apps')
    .innerJoin('users', 'users.team_id', 'apps.team_id')
    .selectAll('apps')
    .where('apps.id', '=', input.appId)
    .where('users.id', '=', input.userId)
    .executeTakeFirst();
  if (!app) throw unknownApp(input.appId);
  return app;
}

const unknownApp = (appId: string): ApiError => new ApiError('UnknownApp', `There is no app "${appId}" in your team.`);
const notInstalled = (app: AppsTable): ApiError => new ApiError('NotInstalled', `You have not installed "${app.name}"; install it first.`);

function whatTheListenerDid(delivery: SyncDeliveryResult, timeoutMs: number): string {
  if (delivery.ok) return `its event listener answered HTTP ${delivery.status} to app.install, and an install needs exactly 200`;
  switch (delivery.reason) {
    case 'timeout':
      return `its event listener did not answer app.install within ${formatDuration(timeoutMs)}`;
    case 'http_error':
      return `its event listener answered HTTP ${delivery.status} to app.install`;
    case 'connection_failed':
      // Not why (refused, reset, no such name): whoever installs should not learn which ports of a host are open.
      return 'its event listener could not be reached';
    case 'no_listener':
      return 'it has no event listener URL';
    case 'not_subscribed':
      return 'it did not subscribe to app.install';
  }
}

const formatDuration = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
