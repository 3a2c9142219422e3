import { isChannelId, type StreamDataFrame } from '@aviary/protocol';
import type { Conversation } from '../../api/client';
import { chatOf } from '../../stream/applyFrames';
import { useStreamFrames } from '../../stream/useStream';
import { conversationPath, messagePath, navigate } from '../route';
import { shouldNotify } from './rules';
import { notificationSettingsNow } from './settingsStore';

/** Whether the browser can show notifications at all. */
export const notificationsSupported = (): boolean => typeof window !== 'undefined' && 'Notification' in window;

/**
 * Browser notifications (the Notification API) for new messages while the tab is hidden, when the person
 * allowed them. A click brings the tab forward at the message (its permalink), or at a reply's thread.
 */
export function useNotifier(me: string, conversations: Conversation[] | undefined, nameOf: (userId: string) => string | undefined): void {
  useStreamFrames((frames: StreamDataFrame[]) => {
    if (!notificationsSupported() || Notification.permission !== 'granted' || document.visibilityState !== 'hidden') return;
    for (const frame of frames) {
      // A reply in a followed thread comes twice, as message.created and then thread.followedReply: a
      // notification's tag (the message's uid) shows it once either way.
      const followed = frame.type === 'thread.followedReply';
      if ((frame.type !== 'message.created' && !followed) || !shouldNotify(frame.message, me, notificationSettingsNow(), Date.now(), followed)) continue;
      const { message } = frame;
      const chat = chatOf(message, me);
      const root = message.threadParent;
      const from = message.sendAs?.name ?? nameOf(message.from) ?? 'Someone';
      const where = conversations?.find((conversation) => conversation.chat === chat);
      const title = isChannelId(message.to) ? `${from} in #${where?.name ?? 'a channel'}` : from;
      const shown = new Notification(title, { body: (message.notification ?? message.text).slice(0, 200), tag: message.uid, icon: '/assets/favicon.svg' });
      shown.onclick = () => {
        window.focus();
        navigate(root === undefined ? messagePath(chat, message.uid) : conversationPath(chat, { message: root, thread: root }));
        shown.close();
      };
    }
  });
}
