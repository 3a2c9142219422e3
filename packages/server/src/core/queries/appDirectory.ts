import type { Db } from '../../store/store.js';

/** The apps of the person's team, by name, each with the person's own install of it. */
export async function listAppDirectory(db: Db, person: { id: string; team_id: string }){
  const apps = await db.selectFrom('apps').selectAll().where('team_id', '=', person.team_id).orderBy('name').orderBy('id').execute();
  const installs = await db.selectFrom('installs').select(['app_id', 'disabled_by_user']).where('user_id', '=', person.id).execute();
  const installOf = new Map(installs.map((install) => [install.app_id, install]));
  return apps.map((app) => ({ app, install: installOf.get(app.id) }));
}
