import type { AuditLogTable, UsersTable } from '../../store/schema.js';
import type { Db, Tx } from '../../store/store.js';
import { newUlid } from '../../store/ids.js';

/** Details longer than this (as JSON) are cut to their keys: the log records what happened, not payloads. */
const MAX_DETAILS_CHARS = 2000;

/** One action of the audit log (docs/operations.md, "Audit log"). */
export interface AuditEntry {
  teamId: string;
  at: number;
  actor: AuditActor;
  /** A short dotted name: `session.signIn`, `app.secretRotated`, `team.settingsChanged`… */
  action: string;
  target: { kind: string; id: string };
  details?: Record<string, unknown>;
}

/** Who acted, and from where: a person (with the app they acted through, if any), nobody known, or the CLI (no address). */
export interface AuditActor {
  userId: string | null;
  appId?: string | null;
  address: string | null;
}

/** The CLI as an actor: an operator at the server's console, with no person and no address. */
export const cliActor: AuditActor = { userId: null, appId: null, address: null };

/**
 * Appends one row to the audit log, in the caller's transaction when given one, so that the row exists
 * exactly when the change does. Rows are never updated; only the retention job deletes them.
 */
export async function recordAudit(db: Db | Tx, entry: AuditEntry): Promise<void> {
  const details = JSON.stringify(entry.details ?? {});
  const row: AuditLogTable = {
    id: newUlid(entry.at),
    team_id: entry.teamId,
    at: entry.at,
    actor_user_id: entry.actor.userId,
    actor_app_id: entry.actor.appId ?? null,
    action: entry.action,
    target_kind: entry.target.kind,
    target_id: entry.target.id,
    address: entry.actor.address,
    details: details.length <= MAX_DETAILS_CHARS ? details : JSON.stringify({ keys: Object.keys(entry.details ?? {}) }),
  };
  await db.insertInto('audit_log').values(row).execute();
}

/** The team and actor of a row for a person acting in their own team: `{ ...byPerson(user, address), at, action, target }`. */
export function byPerson(user: Pick<UsersTable, 'id' | 'team_id'>, address: string | null, appId: string | null = null): Pick<AuditEntry, 'teamId' | 'actor'> {
  return { teamId: user.team_id, actor: { userId: user.id, appId, address } };
}

/** The actor of an API caller: its person (none for an app's secret), the app it acts through, and the address when the caller has one (a session). */
export function callerActor(caller: { user: Pick<UsersTable, 'id'> | null; appId: string | null; clientAddress?: string }): AuditActor {
  return { userId: caller.user?.id ?? null, appId: caller.appId, address: caller.clientAddress ?? null };
}
