import type { PublicProfileModel, UserModel } from '@aviary/protocol';
import type { UsersTable } from '../../store/schema.js';
import { setFields } from './setFields.js';

export function presentUser(row: UsersTable): UserModel {
  return {
    id: row.id,
    teamId: row.team_id,
    ...setFields({ email: row.email }),
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    timezone: row.timezone,
    ...setFields({ profileImage: row.profile_image }),
    ...(row.bot_app_id !== null ? { isBot: true } : {}),
  };
}

export type PublicProfileRow = Pick<UsersTable, 'id' | 'first_name' | 'last_name' | 'profile_image'>;

export function presentPublicProfile(row: PublicProfileRow): PublicProfileModel {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    ...setFields({ profileImage: row.profile_image }),
  };
}
