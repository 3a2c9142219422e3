import { isChannelId, type StreamDataFrame } from '@aviary/protocol';
import type { Conversation } from '../../api/client';
import { chatOf } from '../../stream/applyFrames';
import { useStreamFrames } from '../../stream/useStream';
import { messagePath, navigate } from '../route';
import { shouldNotify } from './rules';
import { notificationSettingsNow } from './settingsStore';

/** Whether the browser can show notifications at all. */
export const notificationsSupported = (): boolean => typeof window !== 'undefined' && 'Notification' in window;

/**
 * Browser notifications (the Notification API) for new messages while the tab is hidden, when the person
 * allowed them. A click brings the tab forward at the message (its permalink).
 */
export function useNotifier(me: string, conversations: Conversation[] | undefined, nameOf: (userId: string) => string | undefined): void {
  useStreamFrames((frames: StreamDataFrame[]) => {
    if (!notificationsSupported() || Notification.permission !== 'granted' || document.visibilityState !== 'hidden') return;
    for (const frame of frames) {
      if (frame.type !== 'message.created' || !shouldNotify(frame.message, me, notificationSettingsNow(), Date.now())) continue;
      const { message } = frame;
      const chat = chatOf(message, me);
      const from = message.sendAs?.name ?? nameOf(message.from) ?? 'Someone';
      const where = conversations?.find((conversation) => conversation.chat === chat);
      const title = isChannelId(message.to) ? `${from} in #${where?.name ?? 'a channel'}` : from;
      const shown = new Notification(title, { body: (message.notification ?? message.text).slice(0, 200), tag: message.uid, icon: '/assets/favicon.svg' });
      shown.onclick = () => {
        window.focus();
        navigate(messagePath(chat, message.uid));
        shown.close();
      };
    }
  });
}
