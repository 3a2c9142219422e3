import type { AdminApp } from '@aviary/protocol';
import type { Db } from '../../store/store.js';

/**
 * Every app of the team for the admin console, by name: its developer, and every install (who, when,
 * disabled by them or not), the earliest first. Two reads, whatever the number of apps.
 */
export async function listTeamApps(db: Db, teamId: string): Promise<AdminApp[]> {
  const apps = await db
    .selectFrom('apps as a')
    .innerJoin('users as d', 'd.id', 'a.developer_id')
    .select(['a.id', 'a.name', 'a.description', 'a.icon', 'a.disabled_by_team', 'a.created_at', 'd.id as developer_id', 'd.first_name', 'd.last_name'])
    .where('a.team_id', '=', teamId)
    .orderBy('a.name')
    .orderBy('a.id')
    .execute();
  const installs = await db
    .selectFrom('installs as i')
    .innerJoin('apps as a', 'a.id', 'i.app_id')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select(['i.app_id', 'i.user_id', 'i.created_at', 'i.disabled_by_user', 'u.first_name', 'u.last_name'])
    .where('a.team_id', '=', teamId)
    .orderBy('i.created_at')
    .orderBy('i.user_id')
    .execute();
  const byApp = new Map<string, AdminApp['installs']>();
  for (const install of installs) {
    const list = byApp.get(install.app_id) ?? [];
    list.push({ userId: install.user_id, firstName: install.first_name, lastName: install.last_name, installedAt: Number(install.created_at), disabledByUser: install.disabled_by_user === 1 });
    byApp.set(install.app_id, list);
  }
  return apps.map((app) => ({
    id: app.id,
    name: app.name,
    description: app.description,
    ...(app.icon ? { icon: app.icon } : {}),
    disabledByTeam: app.disabled_by_team === 1,
    createdAt: Number(app.created_at),
    developer: { id: app.developer_id, firstName: app.first_name, lastName: app.last_name },
    installs: byApp.get(app.id) ?? [],
  }));
}
