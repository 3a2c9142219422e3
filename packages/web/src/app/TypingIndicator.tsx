import { typingShownMs } from '@aviary/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { methods } from '../api/client';
import { useLiveFrames, useStreamFrames } from '../stream/useStream';
import { useWorkspace } from './workspaceContext';

/** How often the composer tells the server the person is typing, at most (docs/reference/client-api.md). */
const SIGNAL_EVERY_MS = 3_000;

/**
 * Who is typing in the open chat, from the stream's `typing` frames: each shown for a few seconds after
 * their last frame, and dropped at once when their message arrives. The line keeps its height when empty,
 * so the history does not jump.
 */
export function TypingIndicator({ chat }: { chat: string }) {
  const workspace = useWorkspace();
  const [typists, setTypists] = useState<ReadonlyMap<string, number>>(new Map());
  useEffect(() => setTypists(new Map()), [chat]);
  useLiveFrames((frame) => {
    if (frame.type !== 'typing' || frame.chat !== chat) return;
    setTypists((current) => new Map(current).set(frame.userId, Date.now() + typingShownMs));
  });
  useStreamFrames((frames) => {
    const sent = new Set(frames.flatMap((frame) => (frame.type === 'message.created' ? [frame.message.from] : [])));
    setTypists((current) => (([...current.keys()].some((userId) => sent.has(userId)) ? new Map([...current].filter(([userId]) => !sent.has(userId))) : current)));
  });
  useEffect(() => {
    if (typists.size === 0) return;
    const next = Math.min(...typists.values());
    const timer = setTimeout(() => setTypists((current) => new Map([...current].filter(([, until]) => until > Date.now()))), Math.max(0, next - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [typists]);

  const names = [...typists.keys()].map((userId) => workspace.nameOf(userId) ?? 'Someone');
  return (
    <div className="typing-indicator" aria-live="polite">
      {describe(names)}
    </div>
  );
}

function describe(names: string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return 'Several people are typing…';
}

/** A callback for the composer's input: tells the server the person types in `chat`, at most every few seconds. */
export function useTypingSignal(chat: string): () => void {
  const last = useRef(0);
  useEffect(() => {
    last.current = 0;
  }, [chat]);
  return useCallback(() => {
    const now = Date.now();
    if (now - last.current < SIGNAL_EVERY_MS) return;
    last.current = now;
    methods.chat.signalTyping({ chat }).catch(() => undefined); // typing is a courtesy: a refusal tells the person nothing
  }, [chat]);
}
