import { useCallback, useEffect, useRef, useState } from 'react';
import { AviaryApiError, failureText, methods, type Message } from '../api/client';
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
  /** The chat is none the person can read: it does not exist, or is closed to them (a private channel they are not in). */
  closed: boolean;
  loadOlder(): void;
  /** After a page failed (`error`): clears the error and asks for that page again. */
  retry(): void;
  /** Adds messages that arrived (sent here, or over the stream); one already shown is not doubled. */
  add(messages: Message[]): void;
  /** Replaces messages shown (a preview was attached); others are ignored. */
  replace(messages: Message[]): void;
  /** Takes deleted messages out. */
  remove(uids: string[]): void;
  /** Applies reactions added or taken back (frames, or the person's own click) to the messages shown. */
  react(changes: Array<ReactionChange & { uid: string }>, me: string): void;
  /** Marks a message pinned (who, when), or not (undefined). */
  pin(uid: string, pinned: Message['pinned']): void;
  /** True while the history opened at a linked message and newer pages are still to load. */
  hasNewer: boolean;
  loadNewer(): void;
}

/**
 * The history of one chat, fetched newest page first and then backwards with `before`. Opened at a linked
 * message (`target`), it starts with the page around it and then loads both ways (`after` forwards).
 * A new `target` or `reloads` (the stream's resyncs) loads it afresh in place: what was shown goes, and a
 * page still on its way from before is dropped, while the rest of the view (the composer, its uploads) stays.
 * A page that failed is asked for again when the stream is `live` again, and when the browser says it is
 * online again (as the outbox does its waiting messages).
 */
export function useHistory(chat: string, target?: string, reloads = 0, live = true): History {
  const [messages, setMessages] = useState<Message[]>([]);
  const [hasOlder, setHasOlder] = useState(true);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const [closed, setClosed] = useState(false);
  const [hasNewer, setHasNewer] = useState(target !== undefined);
  const newerPending = useRef(target !== undefined);
  const inFlight = useRef(false);
  /** The page that failed last, until it is asked for again. */
  const failed = useRef<'older' | 'newer' | 'around'>(undefined);
  /** Counts the fresh starts: a page asked for before the last one is not shown. */
  const opening = useRef(0);
  const oldest = useRef<string | undefined>(undefined);
  const newest = useRef<string | undefined>(undefined);

  const load = useCallback(
    (direction: 'older' | 'newer' | 'around') => {
      if (inFlight.current) return;
      inFlight.current = true;
      const asked = opening.current;
      setLoading(true);
      const params =
        direction === 'around' ? { chat, around: target, limit: PAGE_SIZE } : direction === 'newer' ? { chat, after: newest.current, limit: PAGE_SIZE } : { chat, before: oldest.current, limit: PAGE_SIZE };
      methods.chat
        .fetchMessages(params)
        .then((page) => {
          if (asked !== opening.current) return;
          setError(undefined);
          const got = [...page].reverse();
          if (direction !== 'newer' && got[0]) oldest.current = got[0].uid;
          if (direction !== 'older' && got.at(-1)) newest.current = got.at(-1)!.uid;
          if (direction === 'older') setHasOlder(page.length === PAGE_SIZE);
          if (direction === 'around') setHasOlder(page.length > 0);
          if (direction !== 'older') {
            // The page around a message holds up to half a page after it: a full half means more may follow.
            const at = got.findIndex((message) => message.uid === target);
            newerPending.current = direction === 'newer' ? page.length === PAGE_SIZE : at < 0 || got.length - 1 - at >= Math.floor((PAGE_SIZE - 1) / 2);
            setHasNewer(newerPending.current);
          }
          setMessages((shown) => mergeByUid(got, shown));
        }, (failure: unknown) => {
          if (asked !== opening.current) return;
          // Shown until the person tries again (retry): the view asks for no page meanwhile.
          failed.current = direction;
          setError(failureText(failure));
          if (isClosedChat(failure)) setClosed(true);
        })
        .finally(() => {
          if (asked !== opening.current) return;
          inFlight.current = false;
          setLoading(false);
        });
    },
    [chat, target],
  );
  const loadOlder = useCallback(() => load('older'), [load]);
  const retry = useCallback(() => {
    const direction = failed.current;
    failed.current = undefined;
    setError(undefined);
    if (direction) load(direction);
  }, [load]);
  const loadNewer = useCallback(() => load('newer'), [load]);
  // Back online (the connection returned): what failed is asked for again, not left to "Try again".
  useEffect(() => {
    const again = () => void (failed.current && retry());
    if (live) again();
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [retry, live]);

  const started = useRef(false);
  useEffect(() => {
    if (started.current) {
      opening.current += 1;
      inFlight.current = false;
      oldest.current = undefined;
      newest.current = undefined;
      newerPending.current = target !== undefined;
      setHasNewer(target !== undefined);
      setHasOlder(true);
      setError(undefined);
      setClosed(false);
      failed.current = undefined;
      setMessages([]);
    }
    started.current = true;
    load(target === undefined ? 'older' : 'around');
  }, [load, target, reloads]);

  // While newer pages are still to load, what arrives live comes with them (no gap in between).
  const add = useCallback((arrived: Message[]) => {
    if (!newerPending.current) setMessages((shown) => mergeByUid(shown, arrived));
  }, []);
  const replace = useCallback(
    (changed: Message[]) =>
      setMessages((shown) => {
        const byUid = new Map(changed.map((message) => [message.uid, message]));
        return shown.some((message) => byUid.has(message.uid)) ? shown.map((message) => (byUid.has(message.uid) ? updatedMessage(message, byUid.get(message.uid)!) : message)) : shown;
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
  const pin = useCallback((uid: string, pinned: Message['pinned']) => setMessages((shown) => shown.map((message) => (message.uid === uid ? withPin(message, pinned) : message))), []);
  return { messages, hasOlder, loading, error, closed, loadOlder, retry, add, replace, remove, react, pin, hasNewer, loadNewer };
}

/** Both lists oldest first; the result too, each uid once. */
function mergeByUid(first: Message[], second: Message[]): Message[] {
  const seen = new Set(first.map((message) => message.uid));
  const fresh = second.filter((message) => !seen.has(message.uid));
  if (fresh.length === 0) return first;
  return [...first, ...fresh].sort((a, b) => a.timestamp - b.timestamp || (a.uid < b.uid ? -1 : 1));
}

/** Leaves out the optional fields that are undefined (the client treats absent and undefined alike, tests compare shapes). */
function withoutUndefined(message: Message): Message {
  return Object.fromEntries(Object.entries(message).filter(([, value]) => value !== undefined)) as Message;
}

/** A message as a message.updated frame brings it: the frame carries neither reactions, the pin nor the thread's summary, so those the message had stay. */
export function updatedMessage(was: Message, now: Message): Message {
  return withoutUndefined({ ...now, reactions: now.reactions ?? was.reactions, pinned: now.pinned ?? was.pinned, thread: now.thread ?? was.thread });
}

/** The message pinned (by whom, when), or unpinned. */
export function withPin(message: Message, pinned: Message['pinned']): Message {
  const { pinned: _was, ...rest } = message;
  return pinned ? { ...rest, pinned } : rest;
}

/** A refusal of the chat itself, which asking again will not change. */
const isClosedChat = (failure: unknown): boolean =>
  failure instanceof AviaryApiError && (failure.code === 'UnknownChat' || (failure.code === 'InvalidParameter' && failure.parameter === 'chat'));
