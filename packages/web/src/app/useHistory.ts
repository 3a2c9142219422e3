import { useCallback, useEffect, useRef, useState } from 'react';
import { failureText, methods, type Message } from '../api/client';
import { applyReaction, type ReactionChange } from './reactionState';

/** A history page: the most the server gives at once. */
const PAGE_SIZE = 100;

export interface History {
  /** Oldest first. */
  messages: Message[];
  /** False once the first message of the chat is loaded. */
  hasOlder: boolean;
  loading: boolean;
  error?: string;
  loadOlder(): void;
  /** Adds messages that arrived (sent here, or over the stream); one already shown is not doubled. */
  add(messages: Message[]): void;
  /** Replaces messages shown (a preview was attached); others are ignored. */
  replace(messages: Message[]): void;
  /** Takes deleted messages out. */
  remove(uids: string[]): void;
  /** Applies reactions added or taken back (frames, or the person's own click) to the messages shown. */
  react(changes: Array<ReactionChange & { uid: string }>, me: string): void;
}

/** The history of one chat, fetched newest page first and then backwards with `before`. */
export function useHistory(chat: string): History {
  const [messages, setMessages] = useState<Message[]>([]);
  const [hasOlder, setHasOlder] = useState(true);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const inFlight = useRef(false);
  const oldest = useRef<string | undefined>(undefined);

  const loadOlder = useCallback(() => {
    if (inFlight.current) return;
    inFlight.current = true;
    setLoading(true);
    methods.chat
      .fetchMessages({ chat, before: oldest.current, limit: PAGE_SIZE })
      .then((page) => {
        const older = [...page].reverse();
        if (older[0]) oldest.current = older[0].uid;
        setHasOlder(page.length === PAGE_SIZE);
        setMessages((shown) => mergeByUid(older, shown));
      }, (failure: unknown) => setError(failureText(failure)))
      .finally(() => {
        inFlight.current = false;
        setLoading(false);
      });
  }, [chat]);

  useEffect(() => loadOlder(), [loadOlder]);

  const add = useCallback((arrived: Message[]) => setMessages((shown) => mergeByUid(shown, arrived)), []);
  const replace = useCallback(
    (changed: Message[]) =>
      setMessages((shown) => {
        const byUid = new Map(changed.map((message) => [message.uid, message]));
        return shown.some((message) => byUid.has(message.uid)) ? shown.map((message) => byUid.get(message.uid) ?? message) : shown;
      }),
    [],
  );
  const remove = useCallback((uids: string[]) => {
    const gone = new Set(uids);
    setMessages((shown) => (shown.some((message) => gone.has(message.uid)) ? shown.filter((message) => !gone.has(message.uid)) : shown));
  }, []);
  const react = useCallback(
    (changes: Array<ReactionChange & { uid: string }>, me: string) =>
      setMessages((shown) => {
        let next = shown;
        for (const change of changes) next = next.map((message) => (message.uid === change.uid ? applyReaction(message, change, me) : message));
        return next;
      }),
    [],
  );
  return { messages, hasOlder, loading, error, loadOlder, add, replace, remove, react };
}

/** Both lists oldest first; the result too, each uid once. */
function mergeByUid(first: Message[], second: Message[]): Message[] {
  const seen = new Set(first.map((message) => message.uid));
  const fresh = second.filter((message) => !seen.has(message.uid));
  if (fresh.length === 0) return first;
  return [...first, ...fresh].sort((a, b) => a.timestamp - b.timestamp || (a.uid < b.uid ? -1 : 1));
}
