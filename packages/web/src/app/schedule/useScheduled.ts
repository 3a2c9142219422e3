import { useCallback, useEffect, useState } from 'react';
import { methods } from '../../api/client';
import { chatOf } from '../../stream/applyFrames';
import { useStreamFrames } from '../../stream/useStream';
import { useWorkspace } from '../workspaceContext';

export type Scheduled = Awaited<ReturnType<typeof methods.chat.listScheduledMessages>>['scheduledMessages'][number];

/**
 * The person's scheduled messages of one chat not yet sent, and those whose send failed, soonest first
 * (chat.listScheduledMessages). Asked again after a change here, and when a message of the person's comes
 * to the chat (it may be one of them, sent on time: the list leaves it out then).
 */
export function useScheduled(chat: string): { items: Scheduled[]; reload: () => void } {
  const me = useWorkspace().me.id;
  const [items, setItems] = useState<Scheduled[]>([]);
  const reload = useCallback(() => {
    methods.chat.listScheduledMessages({ to: chat }).then(
      (answer) => setItems(answer.scheduledMessages),
      () => undefined, // the list stays as it was; the next change asks again
    );
  }, [chat]);
  useEffect(reload, [reload]);
  useStreamFrames((frames) => {
    if (frames.some((frame) => frame.type === 'message.created' && frame.message.from === me && chatOf(frame.message, me) === chat)) reload();
  });
  return { items, reload };
}
