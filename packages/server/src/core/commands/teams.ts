import type { TeamRow } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import type { AppCreators } from '../policies/apps.js';
import { recordAudit, type AuditActor } from '../audit/record.js';
import type { CommandContext } from '../context.js';
import { runChange, type Effects } from '../effects/effects.js';
import { teamUpdated } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import { checkVisibleName } from '../names.js';
import { getTeam } from '../queries/teams.js';
import { holdAdminStanding } from './internal/personRows.js';

/** What a team admin may change (team.updateSettings); a setting left out stays as it is. */
export interface TeamSettings {
  /** The team's name, checked as a visible name. */
  name?: string | undefined;
  whoMayCreateChannels?: TeamRow['who_may_create_channels'] | undefined;
  appCreators?: AppCreators | undefined;
  whoMayInvite?: TeamRow['who_may_invite'] | undefined;
  /** How long after sending people may edit or delete their own messages; 0: no limit. */
  messageEditWindowMs?: number | undefined;
}

/**
 * Changes a team's settings and returns the team as it now is, with the audit log's `team.settingsChanged`
 * in the same transaction (a team admin, or the CLI's `aviary team update`). Apps made before a change of
 * app creators stay.
 */
export async function updateTeamSettings(ctx: CommandContext, actor: AuditActor, { teamId, ...settings }: TeamSettings & { teamId: string }): Promise<TeamRow> {
  const change = {
    ...(settings.name !== undefined ? { name: checkVisibleName('name', settings.name.trim()) } : {}),
    ...(settings.whoMayCreateChannels !== undefined ? { who_may_create_channels: settings.whoMayCreateChannels } : {}),
    ...(settings.appCreators !== undefined ? { app_creators: settings.appCreators } : {}),
    ...(settings.whoMayInvite !== undefined ? { who_may_invite: settings.whoMayInvite } : {}),
    ...(settings.messageEditWindowMs !== undefined ? { message_edit_window_ms: settings.messageEditWindowMs } : {}),
  };
  const { name, whoMayCreateChannels, appCreators, whoMayInvite, messageEditWindowMs } = settings;
  const messageEditWindowMinutes = messageEditWindowMs === undefined ? undefined : messageEditWindowMs / 60_000;
  const details = { name, whoMayCreateChannels, appCreators, whoMayInvite, messageEditWindowMinutes };
  return changeTeam(ctx, actor, teamId, change, details);
}

/** team.updateMentionSettings: the channel size above which only team admins may use @channel and @here (0: no limit). */
export async function setBroadcastMentionLimit(ctx: CommandContext, actor: AuditActor, { teamId, limit }: { teamId: string; limit: number }): Promise<TeamRow> {
  return changeTeam(ctx, actor, teamId, { broadcast_mention_limit: limit }, { broadcastMentionLimit: limit });
}

async function changeTeam(ctx: CommandContext, actor: AuditActor, teamId: string, change: Partial<Omit<TeamRow, 'id'>>, details: Record<string, unknown>): Promise<TeamRow> {
  return runChange(ctx, (tx, effects) => writeTeamChange(tx, effects, ctx.now(), { teamId, actor, change, details }));
}

/**
 * Writes a change of the team inside the caller's transaction, with the audit log's `team.settingsChanged`
 * and the `team.updated` frame that shows everyone in the team its new name, icon and settings; returns
 * the team as it now is.
 */
export async function writeTeamChange(
  tx: Tx,
  effects: Effects,
  now: number,
  { teamId, actor, change, details }: { teamId: string; actor: AuditActor; change: Partial<Omit<TeamRow, 'id'>>; details: Record<string, unknown> },
): Promise<TeamRow> {
  // A person's change is an admin's: still one as it is made. The CLI's operator is no person.
  if (actor.userId !== null) await holdAdminStanding(tx, { id: actor.userId, team_id: teamId });
  if (Object.keys(change).length > 0) await tx.updateTable('teams').set(change).where('id', '=', teamId).execute();
  await recordAudit(tx, { teamId, actor, at: now, action: 'team.settingsChanged', target: { kind: 'team', id: teamId }, details });
  const team = await getTeam(tx, teamId);
  await recordStreamEntries(tx, effects, teamId, [teamUpdated(team)], now);
  return team;
}
