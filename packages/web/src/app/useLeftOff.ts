import { createContext, useMemo, useRef } from 'react';
import type { Conversation, Message } from '../api/client';

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
