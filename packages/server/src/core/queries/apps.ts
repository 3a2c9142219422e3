import type { Db } from '../../store/store.js';

/** An app's whole row (its delivery columns too), or undefined. */
export const findApp = (db: Db, appId: string) => db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirst();

export type AppRow = NonNullable<Awaited<ReturnType<typeof findApp>>>;

/** Whether the app takes Flock's names for methods and parameters (its `flockNaming` setting); false for no such app. */
export async function usesFlockNaming(db: Db, appId: string): Promise<boolean> {
  const app = await db.selectFrom('apps').select('flock_naming').where('id', '=', appId).executeTakeFirst();
  return app?.flock_naming === 1;
}

/** The apps a person develops, oldest first (apps.listDeveloped). */
export const appsDevelopedBy = (db: Db, personId: string): Promise<AppRow[]> =>
  db.selectFrom('apps').selectAll().where('developer_id', '=', personId).orderBy('created_at').orderBy('id').execute();

/** Whether the event is one of the app's (deliveries.listAttempts). */
export async function isEventOfApp(db: Db, appId: string, eventId: string): Promise<boolean> {
  const event = await db.selectFrom('events').select('id').where('id', '=', eventId).where('app_id', '=', appId).executeTakeFirst();
  return event !== undefined;
}

/** The app's developer (the person a test event is from when the app itself sends it). */
export const developerOf = (db: Db, app: { developer_id: string }) =>
  db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', '=', app.developer_id).executeTakeFirstOrThrow();
