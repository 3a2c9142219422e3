/**
 * "Credentials ended": a person's sessions were signed out or ended (deactivation too), or an app's
 * secret changed or the app was deleted. Every server process hears it on the bus and, at once, checks
 * against the store the open sockets that depend on them: the streams of that person, the listen
 * connections of that app or opened with that person's session. The store stays the truth (a notice only
 * makes a process look now rather than at its next sweep), so a lost or forged notice closes nothing
 * that is still allowed.
 */
export type CredentialsNotice = { userId: string } | { appId: string };

/** The bus topic of every credentials notice. */
export const credentialsTopic = 'credentials';

export const encodeCredentialsNotice = (notice: CredentialsNotice): string => JSON.stringify(notice);

/** A notice as heard on the bus; undefined for anything else. */
export function parseCredentialsNotice(payload: string): CredentialsNotice | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== 'object' || value === null) return undefined;
    const { userId, appId } = value as Record<string, unknown>;
    if (typeof userId === 'string') return { userId };
    if (typeof appId === 'string') return { appId };
  } catch {
    // Not JSON: not ours.
  }
  return undefined;
}
