import { doNotDisturbActive, isChannelId, levelOf, type MessageModel, type StreamDataFrame } from '@aviary/protocol';
import type { Conversation } from '../../api/client';
import { chatOf, mentionsMe } from '../../stream/applyFrames';
import { useStreamFrames } from '../../stream/useStream';
import { messagePath, navigate } from '../route';
import { notificationSettingsNow } from './settingsStore';

/** Whether the browser can show notifications at all. */
export const notificationsSupported = (): boolean => typeof window !== 'undefined' && 'Notification' in window;

/**
 * Hook for threads: a reply in a thread the person follows notifies like a mention. No thread frame
 * exists yet; when one does, answer here whether `message` is such a reply.
 */
export const isFollowedThreadReply = (_message: MessageModel): boolean => false;

/** Whether a new message notifies the person, by their settings: direct messages, mentions, followed threads; `all` chats; never muted ones or in do-not-disturb. */
export function shouldNotify(message: MessageModel, me: string, now: number): boolean {
  if (message.from === me) return false;
  const settings = notificationSettingsNow();
  if (!settings) return !isChannelId(message.to) || mentionsMe(message, me);
  const level = levelOf(settings, chatOf(message, me));
  if (level === 'mute' || doNotDisturbActive(settings, now)) return false;
  return level === 'all' || !isChannelId(message.to) || mentionsMe(message, me) || isFollowedThreadReply(message);
}

/**
 * Browser notifications (the Notification API) for new messages while the tab is hidden, when the person
 * allowed them. A click brings the tab forward at the message (its permalink).
 */
export function useNotifier(me: string, conversations: Conversation[] | undefined, nameOf: (userId: string) => string | undefined): void {
  useStreamFrames((frames: StreamDataFrame[]) => {
    if (!notificationsSupported() || Notification.permission !== 'granted' || document.visibilityState !== 'hidden') return;
    for (const frame of frames) {
      if (frame.type !== 'message.created' || !shouldNotify(frame.message, me, Date.now())) continue;
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
