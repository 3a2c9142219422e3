import { createContext, useCallback, useMemo, useRef, useState } from 'react';
import { failureText, methods, type Conversation, type Message } from '../api/client';
import { holdReadMarker } from './useReadMarker';
import { useWorkspace } from './workspaceContext';

/** The uid of the first message the person had not read when they opened the chat; MessageRow draws the "New messages" line above it. */
export const FirstUnreadContext = createContext<string | undefined>(undefined);

/** How far the person had read a chat, and how many messages from others were left. */
export interface LeftOff {
  readUpTo: string | undefined;
  unread: number;
}

/**
 * Where the person left off in this chat: the first message from someone else after how far they had
 * read when the chat opened (or, never having marked it, the first of its `unread` newest messages from
 * others). Taken once, when the chat is first known: reading it afterwards moves the marker, not the line.
 * `markedUnread`: where the person has since marked the chat unread from ("Mark unread"), which moves it.
 */
export function useFirstUnread(conversation: Conversation | undefined, messages: Message[], me: string, markedUnread?: LeftOff): string | undefined {
  const leftOff = useRef<LeftOff | undefined>(undefined);
  if (!leftOff.current && conversation) leftOff.current = { readUpTo: conversation.readUpTo, unread: conversation.unread };
  const { readUpTo, unread = 0 } = markedUnread ?? leftOff.current ?? {};
  return useMemo(() => {
    if (unread === 0) return undefined;
    const fromOthers = messages.filter((message) => message.from !== me);
    if (readUpTo !== undefined) return fromOthers.find((message) => message.uid > readUpTo)?.uid;
    return fromOthers.length >= unread ? fromOthers[fromOthers.length - unread]?.uid : undefined;
  }, [messages, me, readUpTo, unread]);
}

/**
 * "Mark unread" in the open chat: the marker goes back to just before the message (chat.markUnread),
 * once a marker already on its way is answered and nothing more is marked read while the chat stays open
 * (holdReadMarker). `markedUnread` is where the "New messages" line goes now (useFirstUnread).
 */
export function useMarkUnread(chat: string): { markedUnread: LeftOff | undefined; markUnread: (message: Message) => void } {
  const { toast } = useWorkspace();
  const [markedUnread, setMarkedUnread] = useState<LeftOff>();
  const markUnread = useCallback(
    (message: Message) =>
      void holdReadMarker(chat)
        .then(() => methods.chat.markUnread({ chat, uid: message.uid }))
        .then(({ readUpTo, unread }) => setMarkedUnread({ readUpTo, unread }), (error: unknown) => toast(failureText(error), 'error')),
    [chat, toast],
  );
  return { markedUnread, markUnread };
}
