import { methods, type Conversation } from '../api/client';
import { MessageListDialog, placeOf, usePagedList } from './MessageListDialog';
import { shortTime } from './PinnedPanel';
import { useWorkspace } from './workspaceContext';

const savedPage = (cursor?: string) => methods.saved.list(cursor === undefined ? {} : { cursor });

/** The person's saved items (saved.list), the most recently saved first, a page at a time; each opens its chat at it. */
export function SavedDialog({ conversations, onClose }: { conversations: Conversation[] | undefined; onClose: () => void }) {
  const workspace = useWorkspace();
  const list = usePagedList(savedPage);
  const entries = (list.items ?? []).map(({ message, savedAt }) => {
    const { chat, place } = placeOf(message, workspace.me.id, conversations);
    return { message, chat, detail: `${place ? `${place} · ` : ''}saved ${shortTime(savedAt, workspace.me.timeZone)}` };
  });
  return <MessageListDialog title="Saved items" list={list} entries={entries} empty="Nothing saved yet. Save a message from its … menu." label="Saved messages" onClose={onClose} />;
}
