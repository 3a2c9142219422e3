import { useEffect, useSyncExternalStore } from 'react';
import { methods } from '../api/client';

/**
 * Which messages the person saved (saved.*), kept once for the page: the "…" menu says "Save" or "Remove
 * from saved" by it. Loaded on first use (the first pages of saved.list), changed by the menu.
 */
const MAX_PAGES = 10;
let saved = new Set<string>();
let loaded: Promise<void> | undefined;
const listeners = new Set<() => void>();

function publish(next: Set<string>): void {
  saved = next;
  for (const listener of listeners) listener();
}

async function loadAll(): Promise<void> {
  const uids = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await methods.saved.list(cursor === undefined ? { limit: 100 } : { limit: 100, cursor });
    for (const item of answer.items) uids.add(item.message.uid);
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
  }
  publish(new Set([...saved, ...uids]));
}

export interface SavedItems {
  has(uid: string): boolean;
  save(uid: string): Promise<void>;
  unsave(uid: string): Promise<void>;
}

const store: SavedItems = {
  has: (uid) => saved.has(uid),
  async save(uid) {
    await methods.saved.add({ messageUid: uid });
    publish(new Set([...saved, uid]));
  },
  async unsave(uid) {
    await methods.saved.remove({ messageUid: uid });
    publish(new Set([...saved].filter((one) => one !== uid)));
  },
};

/** The person's saved messages; re-renders when they change. */
export function useSavedItems(): SavedItems {
  useEffect(() => {
    loaded ??= loadAll().catch(() => {
      loaded = undefined;
    });
  }, []);
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => saved,
  );
  return store;
}

/** Forgets what was loaded (signing out). */
export function forgetSavedItems(): void {
  loaded = undefined;
  publish(new Set());
}
