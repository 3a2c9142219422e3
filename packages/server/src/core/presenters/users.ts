import { offsetAt, type PublicProfileModel, type UserModel } from '@aviary/protocol';
import type { UsersTable } from '../../store/schema.js';
import { setFields } from './setFields.js';
import { statusAt, type StatusColumns } from '../personStatus.js';

/** `timezone` is the offset of the person's zone at `now` (the specification's field), `timeZone` the zone. */
export function presentUser(row: UsersTable, now: number): UserModel {
  return {
    id: row.id,
    teamId: row.team_id,
    ...setFields({ email: row.email }),
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    timezone: offsetAt(row.timezone, now),
    timeZone: row.timezone,
    ...setFields({ profileImage: row.profile_image }),
    ...(row.bot_app_id !== null ? { isBot: true } : {}),
  };
}

export type PublicProfileRow = Pick<UsersTable, 'id' | 'first_name' | 'last_name' | 'profile_image'> & Partial<StatusColumns>;

/** `now` decides whether a status (when the row has one) has expired; without it no status is shown. */
export function presentPublicProfile(row: PublicProfileRow, now?: number): PublicProfileModel {
  const status = now === undefined ? undefined : statusAt(row, now);
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    ...setFields({ profileImage: row.profile_image }),
    ...(status ? { status } : {}),
  };
}
