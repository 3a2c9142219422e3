import { recordAudit, type AuditActor } from '../audit/record.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import type { RetentionChoice } from '../retention/settings.js';

/**
 * A team keeps its messages forever or N days (`aviary retention set --team`), with the audit log's
 * `retention.changed` in the same transaction. Answers the stored days: null is forever.
 */
export async function setTeamMessageRetention(
  ctx: CommandContext,
  actor: AuditActor,
  { teamId, choice }: { teamId: string; choice: Exclude<RetentionChoice, { keep: 'team' }> },
): Promise<number | null> {
  const days = choice.keep === 'days' ? choice.days : null;
  const now = ctx.now();
  await runChange(ctx, async (tx) => {
    await tx.updateTable('teams').set({ message_retention_days: days }).where('id', '=', teamId).execute();
    await recordAudit(tx, { teamId, actor, at: now, action: 'retention.changed', target: { kind: 'team', id: teamId }, details: { messageRetentionDays: days } });
  });
  return days;
}

/**
 * A channel keeps its messages forever, N days or as its team (`aviary retention set --channel`), with
 * the audit log's `retention.changed` in the same transaction. Answers the stored days: 0 is forever,
 * null its team's.
 */
export async function setChannelMessageRetention(ctx: CommandContext, actor: AuditActor, { channelId, choice }: { channelId: string; choice: RetentionChoice }): Promise<number | null> {
  const days = choice.keep === 'days' ? choice.days : choice.keep === 'forever' ? 0 : null;
  const now = ctx.now();
  await runChange(ctx, async (tx) => {
    const channel = await tx.selectFrom('channels').select('team_id').where('id', '=', channelId).executeTakeFirstOrThrow();
    await tx.updateTable('channels').set({ message_retention_days: days }).where('id', '=', channelId).execute();
    await recordAudit(tx, { teamId: channel.team_id, actor, at: now, action: 'retention.changed', target: { kind: 'channel', id: channelId }, details: { messageRetentionDays: days } });
  });
  return days;
}
