import type { NotificationSettings } from '@aviary/protocol';
import { useEffect, useSyncExternalStore } from 'react';
import { methods } from '../../api/client';
import { useStreamFrames } from '../../stream/useStream';

/**
 * The person's notification settings (notifications.getSettings), one copy for the page: loaded once,
 * replaced by what a change answers and by the notifications.changed frame (a change in another tab).
 */
let current: NotificationSettings | undefined;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();

export function setNotificationSettings(settings: NotificationSettings): void {
  current = settings;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** The settings, undefined until loaded; kept current by the stream. */
export function useNotificationSettings(): NotificationSettings | undefined {
  const settings = useSyncExternalStore(subscribe, () => current);
  useEffect(() => {
    loading ??= methods.notifications.getSettings().then(
      (answer) => setNotificationSettings(answer.settings),
      () => {
        loading = undefined;
      },
    );
  }, []);
  useStreamFrames((frames) => {
    for (const frame of frames) if (frame.type === 'notifications.changed') setNotificationSettings(frame.settings);
  });
  return settings;
}

/** The settings as they are now, for code outside React (the notifier's decisions). */
export const notificationSettingsNow = (): NotificationSettings | undefined => current;

/** Forgets the settings (signing out): the next person loads their own. */
export function forgetNotificationSettings(): void {
  current = undefined;
  loading = undefined;
}
