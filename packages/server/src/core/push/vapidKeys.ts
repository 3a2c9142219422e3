import webPush from 'web-push';
import type { Store } from '../../store/store.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const KEY_ID = 'vapid';
const cache = new WeakMap<Store, Promise<VapidKeys>>();

/**
 * The server's VAPID key pair for Web Push: made by the first process that asks (at start), stored in the
 * database with the private key sealed by the server's secret key, so every process of a deployment signs
 * with the one key browsers subscribed to. Two processes making one at once: the first insert wins, both
 * read it back.
 */
export function vapidKeys(store: Store, now: () => number): Promise<VapidKeys> {
  let keys = cache.get(store);
  if (!keys) {
    keys = loadOrMake(store, now);
    keys.catch(() => cache.delete(store));
    cache.set(store, keys);
  }
  return keys;
}

async function loadOrMake(store: Store, now: () => number): Promise<VapidKeys> {
  const stored = await read(store);
  if (stored) return stored;
  const made = webPush.generateVAPIDKeys();
  await store.db
    .insertInto('web_push_keys')
    .values({ id: KEY_ID, public_key: made.publicKey, private_key: store.keyring.seal(made.privateKey), created_at: now() })
    .onConflict((c) => c.column('id').doNothing())
    .execute();
  return (await read(store))!;
}

async function read(store: Store): Promise<VapidKeys | undefined> {
  const row = await store.db.selectFrom('web_push_keys').select(['public_key', 'private_key']).where('id', '=', KEY_ID).executeTakeFirst();
  return row ? { publicKey: row.public_key, privateKey: store.keyring.open(row.private_key) } : undefined;
}
