import type { StreamDataFrame } from '@aviary/protocol';
import { useEffect, useRef, useState } from 'react';
import { StreamConnection, type ConnectionState } from './connection';

type FrameListener = (frames: StreamDataFrame[]) => void;
const listeners = new Set<FrameListener>();

/** Lets a part of the page (the open history) see the stream's frames while it is mounted. */
export function useStreamFrames(listener: FrameListener): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const forward: FrameListener = (frames) => latest.current(frames);
    listeners.add(forward);
    return () => void listeners.delete(forward);
  }, []);
}

/** Opens the stream for the signed-in screen; `onFrames` and `onReload` apply it to the page's state. */
export function useStream(onFrames: FrameListener, onReload: () => void): ConnectionState {
  const [state, setState] = useState<ConnectionState>('connecting');
  const handlers = useRef({ onFrames, onReload });
  handlers.current = { onFrames, onReload };
  useEffect(() => {
    const connection = new StreamConnection({
      frames: (frames) => {
        handlers.current.onFrames(frames);
        for (const listener of listeners) listener(frames);
      },
      reload: () => handlers.current.onReload(),
      state: setState,
    });
    connection.start();
    return () => connection.stop();
  }, []);
  return state;
}
