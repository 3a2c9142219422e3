/**
 * A retention setting as given: `forever`, a number of days, or for a channel `team` (its team's). The
 * stored form (migration 0021): a team's null is forever; a channel's null is its team's, 0 forever.
 */
export type RetentionChoice = { keep: 'forever' } | { keep: 'team' } | { keep: 'days'; days: number };

/** A stored setting in words: what `aviary retention show` prints. */
export function describeRetention(days: number | null, of: 'team' | 'channel'): string {
  if (days === null) return of === 'team' ? 'forever' : 'as the team';
  if (days === 0) return 'forever';
  return `${days} days`;
}
