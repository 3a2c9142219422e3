import { useEffect } from 'react';
import type { Conversation } from '../../api/client';
import { followPushClicks, subscribeToPush, unsubscribeFromPush } from './pushSubscription';
import { forgetNotificationSettings, useNotificationSettings } from './settingsStore';
import { useTabBadge } from './tabBadge';
import { useNotifier } from './useNotifier';
import './notify.css';

/**
 * Everything the signed-in screen does for notifications: the settings kept current, browser
 * notifications while the tab is hidden, the unread count in the title and favicon, this browser's Web
 * Push subscription renewed (when allowed), and clicks on pushed notifications followed.
 */
export function useWorkspaceNotifications(me: string, conversations: Conversation[] | undefined, nameOf: (userId: string) => string | undefined): void {
  useNotificationSettings();
  useNotifier(me, conversations, nameOf);
  useTabBadge(conversations);
  useEffect(() => followPushClicks(), []);
  useEffect(() => void subscribeToPush(), [me]);
}

/** Signing out: this browser's pushes stop, and the next person loads their own settings. */
export async function endNotifications(): Promise<void> {
  await unsubscribeFromPush();
  forgetNotificationSettings();
}
