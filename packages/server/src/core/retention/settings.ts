import type { Db } from '../../store/store.js';

/**
 * A retention setting as given: `forever`, a number of days, or for a channel `team` (its team's). The
 * stored form (migration 0021): a team's null is forever; a channel's null is its team's, 0 forever.
 */
export type RetentionChoice = { keep: 'forever' } | { keep: 'team' } | { keep: 'days'; days: number };

export async function setTeamMessageRetention(db: Db, teamId: string, choice: Exclude<RetentionChoice, { keep: 'team' }>): Promise<void> {
  await db.updateTable('teams').set({ message_retention_days: choice.keep === 'days' ? choice.days : null }).where('id', '=', teamId).execute();
}

export async function setChannelMessageRetention(db: Db, channelId: string, choice: RetentionChoice): Promise<void> {
  const days = choice.keep === 'days' ? choice.days : choice.keep === 'forever' ? 0 : null;
  await db.updateTable('channels').set({ message_retention_days: days }).where('id', '=', channelId).execute();
}

/** A stored setting in words: what `aviary retention show` prints. */
export function describeRetention(days: number | null, of: 'team' | 'channel'): string {
  if (days === null) return of === 'team' ? 'forever' : 'as the team';
  if (days === 0) return 'forever';
  return `${days} days`;
}
