import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { chatOf } from '../stream/applyFrames';
import { useStreamFrames } from '../stream/useStream';
import type { Conversation, Message } from '../api/client';
import { appsWith, ChatButton } from './AppButtons';
import { Composer } from './Composer';
import { ArchivedBanner, DeactivatedBanner } from './ArchivedBanner';
import { ChatImages } from './files/ChatImages';
import { useFileDrop } from './files/useFileDrop';
import { useUploads } from './files/useUploads';
import { HistoryList } from './HistoryList';
import { MembersDialog } from './MembersDialog';
import { PendingMessages } from './PendingMessages';
import { ScheduledBar } from './schedule/ScheduledBar';
import { useScheduled } from './schedule/useScheduled';
import { SelectionBar } from './SelectionBar';
import { ConversationIcon } from './Sidebar';
import { TypingIndicator, useTypingSignal } from './TypingIndicator';
import { useHistory } from './useHistory';
import { MessageChangesContext, useMessageChangesOf } from './messageChanges';
import { useJumpToNewest } from './useJumpToNewest';
import { FirstUnreadContext, useFirstUnread, useMarkUnread } from './useLeftOff';
import { useReadMarker } from './useReadMarker';
import { useSelection } from './useSelection';
import { useWorkspace } from './workspaceContext';
import { MenuButton } from './PageHeader';
import { PinnedDialog } from './PinnedPanel';
import { conversationPath, navigate } from './route';
import { OpenThreadContext } from './threads/threadContext';
import { reactionChangeOf } from './reactionState';

/**
 * The open chat: its header (with the apps' chat-tab buttons), its history and the composer. Files
 * dropped anywhere on it go to the composer's uploads; its images open in the viewer.
 */
export function ConversationView({ chat, conversation, focusSignal, onMenu, onSent, target, thread, reloads, live }: {
  chat: string;
  /** Changes when the stream could not replay a gap: the history loads afresh, the rest of the view stays. */
  reloads?: number;
  /** Whether the stream is live: when it is again after a break, a history page that failed meanwhile is asked for again. */
  live?: boolean;
  /** The message a link opened the chat at (`?m=`): loaded around, brought into view, highlighted. */
  target?: string | undefined;
  /** The thread open beside the chat (`?thread=`; the workspace shows its panel): kept when the chat moves to its newest. */
  thread?: string | undefined;
  conversation?: Conversation | undefined;
  /** Changes when the person chose this chat again (Ctrl+K): the composer takes the focus. */
  focusSignal?: number;
  onMenu: () => void;
  onSent: () => void;
}) {
  const workspace = useWorkspace();
  const history = useHistory(chat, target, reloads, live);
  const [pinsOpen, setPinsOpen] = useState(false);
  const typed = useTypingSignal(chat);
  const [membersOpen, setMembersOpen] = useState(false);
  const order = useMemo(() => history.messages.map((message) => message.uid), [history.messages]);
  const selection = useSelection(order);
  const name = conversation?.name ?? workspace.nameOf(chat) ?? 'Conversation';
  const tabButtons = appsWith(workspace.apps, 'chatTabButton');
  const archived = conversation?.channel?.archivedAt !== undefined;
  const uploads = useUploads();
  // Nothing goes to an archived channel or to a deactivated person: no composer, and no files dropped.
  const drop = useFileDrop(uploads.add, !archived && !conversation?.deactivated);
  useStreamFrames((frames) => {
    const mine = (type: 'message.created' | 'message.updated') =>
      frames.flatMap((frame) => (frame.type === type && chatOf(frame.message, workspace.me.id) === chat ? [frame.message] : []));
    // A thread reply belongs in its thread (ThreadPanel), unless it was also sent to the channel.
    const created = mine('message.created').filter((message) => message.threadParent === undefined || message.alsoInChannel);
    const updated = mine('message.updated');
    if (created.length > 0) history.add(created);
    if (updated.length > 0) history.replace(updated);
    const here = (message: { from: string; to: string }) => chatOf(message, workspace.me.id) === chat;
    const deleted = frames.flatMap((frame) => (frame.type === 'message.deleted' && here(frame.message) ? [frame.message.uid] : []));
    if (deleted.length > 0) history.remove(deleted);
    const reactions = frames.flatMap((frame) => {
      const change = reactionChangeOf(frame);
      return change && 'message' in frame && here(frame.message) ? [change] : [];
    });
    if (reactions.length > 0) history.react(reactions, workspace.me.id);
    for (const frame of frames) {
      const parent = frame.type === 'thread.updated' ? history.messages.find((message) => message.uid === frame.message.uid) : undefined;
      if (parent && frame.type === 'thread.updated') history.replace([{ ...parent, thread: frame.thread }]);
      if (frame.type === 'pin.added' && here(frame.message)) history.pin(frame.message.uid, { by: frame.userId, at: frame.pinnedAt });
      if (frame.type === 'pin.removed' && here(frame.message)) history.pin(frame.message.uid, undefined);
    }
  });
  useReadMarker(chat, history.messages.at(-1), conversation?.unread ?? 0, workspace.me.id);
  const { markedUnread, markUnread } = useMarkUnread(chat);
  const scheduled = useScheduled(chat);
  const firstUnread = useFirstUnread(conversation, history.messages, workspace.me.id, markedUnread);
  const section = useRef<HTMLElement>(null);
  useShowLeftOff(section, firstUnread);
  const newest = useJumpToNewest(section);
  const { add, hasNewer } = history;
  const { jump } = newest;
  // Opened at a linked message with newer pages still to load: the newest is the chat opened afresh.
  const toNewest = useCallback(() => (hasNewer ? navigate(conversationPath(chat, { thread })) : jump()), [hasNewer, chat, thread, jump]);
  // Opening a thread keeps the message the chat was opened at: the history stays as it is.
  const openThread = useCallback((uid: string) => navigate(conversationPath(chat, { message: target, thread: uid })), [chat, target]);
  const changes = useMessageChangesOf(history, archived, markUnread);
  const { setEditing } = changes;
  // When an edit ends (saved or cancelled), the composer takes the focus back.
  const [editsEnded, setEditsEnded] = useState(0);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (wasEditing.current && changes.editing === undefined) setEditsEnded((count) => count + 1);
    wasEditing.current = changes.editing !== undefined;
  }, [changes.editing]);
  // Up in an empty composer: edit one's newest message that one may edit.
  const editLast = useCallback(() => {
    const last = history.messages.findLast((message) => message.from === workspace.me.id && message.appId === undefined);
    if (!last) return false;
    setEditing(last.uid);
    return true;
  }, [history.messages, workspace.me.id, setEditing]);
  // One's own message always comes into view, however far up the person had scrolled.
  const sent = useCallback(
    (message: Message) => {
      add([message]);
      toNewest();
      onSent();
    },
    [add, toNewest, onSent],
  );

  if (history.closed) return <ClosedChat onMenu={onMenu} />;
  return (
    <section ref={section} className={`conversation${drop.dragging ? ' dropping' : ''}`} aria-labelledby="conversation-title" {...drop.handlers}>
      {drop.dragging && (
        <div className="drop-overlay" aria-hidden="true">
          Drop files to share them in {conversation?.kind === 'channel' ? '#' : ''}
          {name}
        </div>
      )}
      <header className="conversation-header">
        <MenuButton onMenu={onMenu} />
        {conversation && <ConversationIcon conversation={conversation} />}
        <div className="conversation-heading">
          <h1 id="conversation-title">{name}</h1>
          {conversation?.channel?.purpose && <p className="conversation-purpose">{conversation.channel.purpose}</p>}
        </div>
        {conversation?.channel && (
          <button type="button" className="member-count-button" aria-haspopup="dialog" onClick={() => setMembersOpen(true)}>
            {conversation.channel.memberCount === 1 ? '1 member' : `${conversation.channel.memberCount} members`}
          </button>
        )}
        <button type="button" className="member-count-button pins-button" aria-haspopup="dialog" aria-label="Pinned messages" title="Pinned messages" onClick={() => setPinsOpen(true)}>
          <span aria-hidden="true">📌</span>
          <span className="pins-button-text" aria-hidden="true">
            {' '}
            Pinned
          </span>
        </button>
        <div className="tab-buttons">
          {tabButtons.map((app) => (
            <ChatButton key={app.id} app={app} button="chatTabButton" chat={chat} className="secondary">
              {app.integrations.chatTabButton!.name}
            </ChatButton>
          ))}
        </div>
      </header>
      {membersOpen && conversation?.channel && <MembersDialog channel={conversation.channel} onClose={() => setMembersOpen(false)} />}
      {pinsOpen && <PinnedDialog chat={chat} name={`${conversation?.kind === 'channel' ? '#' : ''}${name}`} onClose={() => setPinsOpen(false)} />}
      <FirstUnreadContext.Provider value={firstUnread}>
        <MessageChangesContext.Provider value={changes}>
          <OpenThreadContext.Provider value={openThread}>
            {/* A fresh history opens afresh: at its end, or at the linked message, with the images its viewer had gone through forgotten. */}
            <ChatImages key={`${target ?? ''}:${reloads ?? 0}`} messages={history.messages} earlier={{ chat, hasOlder: history.hasOlder }}>
              <HistoryList history={history} chat={chat} selection={selection} target={target} />
            </ChatImages>
          </OpenThreadContext.Provider>
        </MessageChangesContext.Provider>
      </FirstUnreadContext.Provider>
      <div className="jump-anchor">
        {(newest.away || hasNewer) && (
          <button type="button" className="jump-to-newest" onClick={toNewest}>
            Jump to newest <span aria-hidden="true">↓</span>
          </button>
        )}
      </div>
      {selection.active && <SelectionBar selection={selection} chat={chat} />}
      <PendingMessages chat={chat} />
      <TypingIndicator chat={chat} />
      {archived ? (
        <ArchivedBanner name={name} />
      ) : conversation?.deactivated ? (
        <DeactivatedBanner name={name} />
      ) : (
        <div className="typing-watch" onInput={typed}>
          <ScheduledBar items={scheduled.items} reload={scheduled.reload} />
          <Composer
            chat={chat}
            placeholder={`Message ${conversation?.kind === 'channel' ? '#' : ''}${name}`}
            focusSignal={(focusSignal ?? 0) + editsEnded}
            onSent={sent}
            onEditLast={editLast}
            onScheduled={scheduled.reload}
            uploads={uploads}
          />
        </div>
      )}
    </section>
  );
}

/**
 * A chat the person cannot read (a link to a private channel they are not in, to another team's chat, or
 * to none): said so, with nothing to type into and nothing to try again.
 */
function ClosedChat({ onMenu }: { onMenu: () => void }) {
  return (
    <section className="conversation" aria-labelledby="conversation-title">
      <header className="conversation-header">
        <MenuButton onMenu={onMenu} />
        <div className="conversation-heading">
          <h1 id="conversation-title">Conversation not found</h1>
        </div>
      </header>
      <p className="page-message">
        This conversation does not exist, or you cannot see it: it may be a private channel you are not in. Pick a conversation in the sidebar, or browse the channels.
      </p>
    </section>
  );
}

/** Looking for the "New messages" line, the history goes up a view at a time, this many views at most. */
const LEFT_OFF_SEARCH_VIEWS = 20;

/**
 * Once per opening: when the "New messages" line is above the view (more came than the view shows), the
 * history is brought to it, so the person reads on from where they left off rather than from the end.
 * The list only renders rows near the view, so the line is looked for a view further up at each frame.
 */
function useShowLeftOff(section: RefObject<HTMLElement | null>, firstUnread: string | undefined) {
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current || firstUnread === undefined) return;
    shown.current = true;
    let views = 0;
    const look = () => {
      const history = section.current?.querySelector<HTMLElement>('.history');
      if (!history) return;
      const line = history.querySelector<HTMLElement>('.new-messages-line');
      if (line) {
        if (line.getBoundingClientRect().top < history.getBoundingClientRect().top) line.scrollIntoView({ block: 'start' });
        return;
      }
      if (history.scrollTop === 0 || ++views > LEFT_OFF_SEARCH_VIEWS) return;
      history.scrollTop -= history.clientHeight;
      requestAnimationFrame(look);
    };
    // After the list has opened at its end and measured its rows.
    requestAnimationFrame(() => requestAnimationFrame(look));
  }, [section, firstUnread]);
}
