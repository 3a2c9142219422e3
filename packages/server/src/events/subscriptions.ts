import { subscribesTo } from '@aviary/protocol';
import type { AppsTable } from '../store/schema.js';
import { holdApp } from '../store/rows/apps.js';
import type { Db, Tx } from '../store/store.js';

/**
 * Event subscriptions (docs/reference/event-subscriptions.md): the platform sends an app only the events
 * it subscribed to, checked where events leave (the outbox, synchronous delivery, widget URLs).
 */

/** An app's subscriptions as stored: a JSON array of event names, or null for the defaults. */
export function storedSubscriptions(app: Pick<AppsTable, 'event_subscriptions'>): string[] | null {
  return app.event_subscriptions === null ? null : (JSON.parse(app.event_subscriptions) as string[]);
}

export function appReceives(app: Pick<AppsTable, 'event_subscriptions'>, eventName: string): boolean {
  return subscribesTo(storedSubscriptions(app), eventName);
}

/**
 * Whether the app receives `eventName`; false for an app that is gone. The app's row is held until the
 * caller's transaction ends (store/rows/apps.ts): an event is only recorded for an app that stays.
 */
export async function appSubscribesTo(db: Db | Tx, appId: string, eventName: string): Promise<boolean> {
  const app = await holdApp(db, appId);
  return app !== undefined && appReceives(app, eventName);
}
