import type { Db } from '../../src/store/store.js';

/**
 * Sets an app's allowed origins straight in its row, as apps.update does: widget and browser URLs
 * may only lead to origins the app's developer registered.
 */
export async function allowOrigins(db: Db, appId: string, origins: string[]): Promise<void> {
  await db.updateTable('apps').set({ allowed_origins: JSON.stringify(origins) }).where('id', '=', appId).execute();
}
