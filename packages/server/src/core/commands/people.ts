import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { newTeamId, newUserId } from '../../store/ids.js';
import { insertUser } from '../../store/rows/users.js';
import { hashPassword } from '../passwords.js';

export async function createTeam(db: Db, input: { name: string; now: number }): Promise<{ id: string }> {
  const id = newTeamId();
  await db.insertInto('teams').values({ id, name: input.name, app_creators: 'members', created_at: input.now }).execute();
  return { id };
}

export interface NewPerson {
  teamId: string;
  email: string;
  firstName: string;
  lastName: string;
  password?: string;
  role?: UsersTable['role'];
  timezone?: string;
  profileImage?: string;
}

export async function createPerson(db: Db, input: NewPerson & { now: number }): Promise<UsersTable> {
  return insertUser(db, {
    id: newUserId(),
    team_id: input.teamId,
    email: input.email.trim().toLowerCase(),
    first_name: input.firstName,
    last_name: input.lastName,
    role: input.role ?? 'user',
    timezone: input.timezone ?? '+00:00',
    profile_image: input.profileImage ?? null,
    password_hash: input.password ? await hashPassword(input.password) : null,
    created_at: input.now,
  });
}

export async function deactivatePerson(db: Db, userId: string, now: number): Promise<void> {
  await db.updateTable('users').set({ deactivated_at: now }).where('id', '=', userId).execute();
}
