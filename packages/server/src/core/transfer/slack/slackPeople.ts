import { nameProblem } from '@aviary/protocol';
import { inBatches } from '../../../store/batches.js';
import { newUserId } from '../../../store/ids.js';
import { insertUser } from '../../../store/rows/users.js';
import type { Tx } from '../../../store/store.js';
import { importedTimeZone } from '../../timeZones.js';
import type { SlackUser } from './slackExport.js';

/** Who a Slack user became: an Aviary user id and the name mentions show. */
export interface MappedPerson {
  id: string;
  name: string;
}

export interface PeopleSummary {
  /** Slack users matched by email to people the team had. */
  matched: number;
  /** People created, and the emails of those among them who have no password yet (all of them). */
  created: number;
  withoutPassword: string[];
  /** Slack users without an email (bots, Slackbot, some deleted users): created deactivated, to keep their messages' sender. */
  withoutEmail: number;
}

/**
 * Maps every Slack user to a person of the team: one with the same email (trimmed, lower case, as
 * createPerson stores it) is matched; anyone else is created, without a password (they cannot sign in
 * until given one), deactivated when Slack marks them deleted or has no email for them.
 */
export async function mapSlackPeople(tx: Tx, teamId: string, users: SlackUser[], now: number): Promise<{ people: Map<string, MappedPerson>; summary: PeopleSummary }> {
  const summary: PeopleSummary = { matched: 0, created: 0, withoutPassword: [], withoutEmail: 0 };
  const emailOf = (user: SlackUser) => user.profile?.email?.trim().toLowerCase() || undefined;
  const existing = new Map<string, MappedPerson>();
  const emails = [...new Set(users.map(emailOf).filter((email): email is string => email !== undefined))];
  for (const batch of inBatches(emails, 2)) {
    const rows = await tx.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('team_id', '=', teamId).where('email', 'in', batch).execute();
    for (const row of rows) existing.set(row.email!, { id: row.id, name: `${row.first_name} ${row.last_name}`.trim() });
  }
  const people = new Map<string, MappedPerson>();
  for (const user of users) {
    const email = emailOf(user);
    const found = email !== undefined ? existing.get(email) : undefined;
    if (found) {
      summary.matched++;
      people.set(user.id, found);
      continue;
    }
    const [firstName, lastName] = namesOf(user);
    const row = await insertUser(tx, {
      id: newUserId(),
      team_id: teamId,
      email: email ?? null,
      first_name: firstName,
      last_name: lastName,
      role: user.is_owner || user.is_admin ? 'admin' : user.is_restricted ? 'guest' : 'user',
      timezone: importedTimeZone(user.tz, offsetText(user.tz_offset ?? 0)),
      deactivated_at: user.deleted || email === undefined ? now : null,
      created_at: now,
    });
    summary.created++;
    if (email !== undefined) {
      summary.withoutPassword.push(email);
      // A second Slack user with the same email (a rare export) joins the first.
      existing.set(email, { id: row.id, name: `${firstName} ${lastName}`.trim() });
    } else {
      summary.withoutEmail++;
    }
    people.set(user.id, { id: row.id, name: `${firstName} ${lastName}`.trim() });
  }
  return { people, summary };
}

/** First and last name: Slack's own, else its real name split at the first space, else the handle. */
function namesOf(user: SlackUser): [string, string] {
  const profile = user.profile ?? {};
  const real = (profile.real_name ?? user.real_name ?? '').trim();
  const [first, last] = profile.first_name
    ? [profile.first_name.trim(), (profile.last_name ?? '').trim()]
    : real
      ? [real.split(/\s+/)[0], real.split(/\s+/).slice(1).join(' ')]
      : [(profile.display_name ?? user.name ?? user.id).trim(), ''];
  const shown = (name: string, fallback: string) => (name !== '' && nameProblem(name) === undefined ? name : fallback);
  return [shown(first, user.name ?? user.id), last === '' ? '' : shown(last, '')];
}

/** Seconds east of UTC as a UTC offset, such as +01:00 or -05:30. */
function offsetText(seconds: number): string {
  const minutes = Math.round(Math.abs(seconds) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${seconds < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
