import { useEffect, useState } from 'react';
import { methods } from '../../api/client';
import { useStreamFrames } from '../../stream/useStream';

/**
 * How many followed threads have replies the person has not read, for the sidebar's Threads: those of
 * the first page of threads.list (the most recent) when the workspace opens or resyncs (`reloads`), then
 * live: a reply in a followed thread (thread.followedReply) adds its thread, and reading or unfollowing
 * one on any device (thread.followUpdated) takes it away.
 */
export function useUnreadThreads(reloads: number): number {
  const [unread, setUnread] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    let live = true;
    methods.threads.list({}).then(
      (page) => live && setUnread(new Set(page.threads.filter((thread) => thread.unread).map((thread) => thread.message.uid))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [reloads]);
  useStreamFrames((frames) => {
    const changes = frames.flatMap((frame) =>
      frame.type === 'thread.followedReply' && frame.message.threadParent !== undefined
        ? [{ root: frame.message.threadParent, unread: true }]
        : frame.type === 'thread.followUpdated' && (!frame.following || frame.readUpTo !== undefined)
          ? [{ root: frame.message.uid, unread: false }]
          : [],
    );
    if (changes.length === 0) return;
    // In the order they came: a reply read at once (its thread open) leaves the thread read.
    setUnread((now) => {
      const next = new Set(now);
      for (const change of changes) {
        if (change.unread) next.add(change.root);
        else next.delete(change.root);
      }
      return next;
    });
  });
  return unread.size;
}
