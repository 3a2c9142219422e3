import type { StreamDataFrame, StreamLiveFrame } from '@aviary/protocol';
import { useEffect, useRef, useState } from 'react';
import { StreamConnection, type ConnectionState, type StreamHandlers } from './connection';

type FrameListener = (frames: StreamDataFrame[]) => void;
type LiveListener = (frame: StreamLiveFrame) => void;
const listeners = new Set<FrameListener>();
const liveListeners = new Set<LiveListener>();

/** Keeps `listener` in `set` while the component is mounted, always calling its latest version. */
function useListenerIn<T>(set: Set<(value: T) => void>, listener: (value: T) => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const forward = (value: T) => latest.current(value);
    set.add(forward);
    return () => void set.delete(forward);
  }, [set]);
}

/** Lets a part of the page (the open history) see the stream's frames while it is mounted. */
export const useStreamFrames = (listener: FrameListener): void => useListenerIn(listeners, listener);

/** Lets a part of the page (the typing indicator) see the typing and presence frames while it is mounted. */
export const useLiveFrames = (listener: LiveListener): void => useListenerIn(liveListeners, listener);

/**
 * Opens the stream for the signed-in screen; `onFrames` and `onReload` apply it to the page's state,
 * `onPresence` who is online. With `cursor` (where the page's loads start from), it resumes from there
 * rather than asking for a reload.
 */
export function useStream(
  onFrames: FrameListener,
  onReload: () => void,
  cursor?: string,
  onPresence?: (online: ReadonlySet<string> | undefined) => void,
): ConnectionState {
  const [state, setState] = useState<ConnectionState>('connecting');
  const handlers = useRef({ onFrames, onReload, onPresence });
  handlers.current = { onFrames, onReload, onPresence };
  const initialCursor = useRef(cursor);
  useEffect(() => {
    const handled: StreamHandlers = {
      frames: (frames) => {
        handlers.current.onFrames(frames);
        for (const listener of listeners) listener(frames);
      },
      reload: () => handlers.current.onReload(),
      state: setState,
      presence: (online) => handlers.current.onPresence?.(online),
      live: (frame) => {
        for (const listener of liveListeners) listener(frame);
      },
    };
    // Only the cursor the page loaded with counts: after that, the connection keeps its own.
    const connection = new StreamConnection(handled, initialCursor.current);
    connection.start();
    return () => connection.stop();
  }, []);
  return state;
}
