import { createContext, useCallback, useContext, useMemo, useRef, useState, type MutableRefObject } from 'react';
import { failureText, methods, type Message } from '../api/client';
import type { Mention } from './suggestions';
import type { History } from './useHistory';
import { useWorkspace } from './workspaceContext';

/** An edit as typed so far: its text, and the people picked with `@` (those the message named, and any added). */
export interface EditDraft {
  text: string;
  mentions: Mention[];
}

/** What the open chat's messages offer the person: react, edit and delete, one message edited at a time. */
export interface MessageChanges {
  /** The message being edited in place, if any. */
  editing: string | undefined;
  /** The chat is an archived channel: its messages take no reactions, pins, edits or deletions. */
  readOnly: boolean;
  setEditing(uid: string | undefined): void;
  /**
   * The edit's text as typed so far, kept here and not in the editor: the history shows only the rows
   * near the view, so the editor goes when its row scrolls away, and comes back with this. Undefined
   * until the editor first changes it; a new edit (or none) starts afresh.
   */
  editDraft: MutableRefObject<EditDraft | undefined>;
  /** Reacts with `emoji`, or takes the reaction back when the person had it: shown at once, undone if refused. */
  toggleReaction(message: Message, emoji: string): void;
  /**
   * Saves an edit (with `serviceml`, the people it names; without, the message becomes plain text);
   * resolves once the server has it (the frame brings it to every other client).
   */
  saveEdit(message: Message, text: string, serviceml: string | undefined): Promise<void>;
  /** "Mark unread" from this message on: offered in a chat's history (not in a thread, whose replies have markers of their own). */
  markUnread?: ((message: Message) => void) | undefined;
  deleteMessage(message: Message): Promise<void>;
}

export const MessageChangesContext = createContext<MessageChanges | null>(null);

export function useMessageChanges(): MessageChanges {
  const changes = useContext(MessageChangesContext);
  if (!changes) throw new Error('useMessageChanges outside a conversation');
  return changes;
}

/**
 * What the person may do to a message: react to it and pin it (whoever reads it), edit it (their own,
 * sent through no app) and delete it (their own; a team admin, any). A deleted message (a thread's parent
 * kept for its replies) takes none of these, nor does any message of an archived channel.
 */
export function abilitiesOn(message: Message, me: { id: string; role: string }, readOnly: boolean): { change: boolean; edit: boolean; delete: boolean } {
  const change = !readOnly && message.deletedAt === undefined;
  const own = message.from === me.id;
  return { change, edit: change && own && message.appId === undefined, delete: change && (own || me.role === 'admin') };
}

/** The changes of the messages `history` shows (a chat's history, or an open thread's messages). */
export function useMessageChangesOf(history: Pick<History, 'react' | 'replace' | 'remove'>, readOnly: boolean, markUnread?: (message: Message) => void): MessageChanges {
  const workspace = useWorkspace();
  const [editing, setEditingUid] = useState<string>();
  const editDraft = useRef<EditDraft | undefined>(undefined);
  const setEditing = useCallback((uid: string | undefined) => {
    editDraft.current = undefined;
    setEditingUid(uid);
  }, []);
  const me = workspace.me.id;
  const { react, replace, remove } = history;
  const { toast } = workspace;
  return useMemo(
    () => ({
      editing,
      readOnly,
      setEditing,
      markUnread,
      editDraft,
      toggleReaction(message, emoji) {
        const added = !message.reactions?.some((reaction) => reaction.emoji === emoji && reaction.me);
        react([{ uid: message.uid, emoji, userId: me, added }], me);
        const call = added ? methods.reactions.add({ messageUid: message.uid, emoji }) : methods.reactions.remove({ messageUid: message.uid, emoji });
        call.catch((error: unknown) => {
          react([{ uid: message.uid, emoji, userId: me, added: !added }], me);
          toast(failureText(error), 'error');
        });
      },
      async saveEdit(message, text, serviceml) {
        const { editedAt } = await methods.chat.updateMessage({ messageUid: message.uid, text, ...(serviceml ? { serviceml } : {}) });
        const { serviceml: _before, ...unchanged } = message;
        replace([{ ...unchanged, text, ...(serviceml ? { serviceml } : {}), editedAt }]);
      },
      async deleteMessage(message) {
        await methods.chat.deleteMessage({ messageUid: message.uid });
        remove([message.uid]);
      },
    }),
    [editing, readOnly, setEditing, markUnread, me, react, replace, remove, toast],
  );
}
