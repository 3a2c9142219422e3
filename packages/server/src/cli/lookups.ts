// Rows a command needs to exist, each failing with a message that names what was not found.
import type { AppsTable, TeamsTable, UsersTable } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { CliError } from './errors.js';

export async function findTeam(db: Db, id: string): Promise<TeamsTable | undefined> {
  return db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function requireTeam(db: Db, id: string): Promise<TeamsTable> {
  const team = await findTeam(db, id);
  if (!team) throw new CliError('UnknownTeam', `There is no team "${id}".`);
  return team;
}

export async function requireUser(db: Db, id: string): Promise<UsersTable> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!user) throw new CliError('UnknownUser', `There is no user "${id}".`);
  return user;
}

/** An active person: neither a bot nor deactivated. */
export async function requirePerson(db: Db, id: string): Promise<UsersTable> {
  const user = await requireUser(db, id);
  if (user.bot_app_id !== null) throw new CliError('UnknownUser', `"${id}" is a bot, not a person.`);
  if (user.deactivated_at !== null) throw new CliError('UnknownUser', `The user "${id}" is deactivated.`);
  return user;
}

export async function requireApp(db: Db, id: string): Promise<AppsTable> {
  const app = await db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();
  if (!app) throw new CliError('UnknownApp', `There is no app "${id}".`);
  return app;
}

export async function hasAnyTeam(db: Db): Promise<boolean> {
  return (await db.selectFrom('teams').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Emails are unique within a team, compared as createPerson stores them (trimmed, lower case). */
export async function isEmailTaken(db: Db, teamId: string, email: string): Promise<boolean> {
  const found = await db
    .selectFrom('users')
    .select('id')
    .where('team_id', '=', teamId)
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return found !== undefined;
}
