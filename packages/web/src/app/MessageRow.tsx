import { memo, useContext, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { Message } from '../api/client';
import { AttachmentCard } from './AttachmentCard';
import { Avatar } from './Avatar';
import { EditedMark } from './EditHistory';
import { EmojiPicker } from './emoji/EmojiPicker';
import { formatFullTime, formatTime } from './format';
import { useMessageChanges } from './messageChanges';
import { MessageEditor } from './MessageEditor';
import { MessageText } from './MessageText';
import { MessageTools } from './MessageTools';
import { PersonCard } from './PersonCard';
import { PinnedMarker } from './PinnedPanel';
import { ReactionPills } from './ReactionPills';
import { MessageFiles } from './files/MessageFiles';
import { FirstUnreadContext } from './useLeftOff';
import { ThreadReplyNote, ThreadSummaryLine } from './threads/ThreadSummaryLine';
import { useWorkspace } from './workspaceContext';

/** On a touch screen nothing hovers: a tap on a message focuses it and opens its tools, until the focus leaves it. */
const touchOnly = typeof matchMedia === 'function' && matchMedia('(hover: none)').matches;

/**
 * The row whose tools are open closes them when a tap or the focus lands outside it. Its blur alone
 * misses one case: a menu item that closes its menu takes the focus away with it, and an element
 * leaving the page fires no blur.
 */
function useClosedOutside(open: boolean, setOpen: Dispatch<SetStateAction<boolean>>) {
  const row = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      if (!row.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside, true);
    document.addEventListener('focusin', outside, true);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      document.removeEventListener('focusin', outside, true);
    };
  }, [open, setOpen]);
  return row;
}

/**
 * One message: its sender (or `sendAs`), "via" the app that sent it, its text (Markdown) or ServiceML,
 * "(edited)" once its sender edited it, its files (files/MessageFiles.tsx), attachments and reactions, its tools on hover (react, edit,
 * delete, the apps' message actions); above it, the "New messages" line when the
 * person had read up to just before it. A `sendAs` name is only what the app chose to call itself:
 * beside it, always, who really sent the message (the person the app acts for, or its bot) and through
 * which app, so that no app passes for a person.
 */
export const MessageRow = memo(function MessageRow({ message, continued, chat, selected, onToggle, highlighted }: {
  message: Message;
  continued: boolean;
  chat: string;
  /** The message a link opened the chat at. */
  highlighted?: boolean | undefined;
  /** Whether the message is picked for a message action; undefined while nothing is being picked. */
  selected?: boolean | undefined;
  /** Picks or unpicks it (`range`: with Shift, from the last one picked), turning picking on. */
  onToggle?: ((uid: string, range: boolean) => void) | undefined;
}) {
  const workspace = useWorkspace();
  const appName = message.appId ? (workspace.appName(message.appId) ?? 'an app') : undefined;
  const realSender = workspace.nameOf(message.from) ?? 'Someone';
  const sender = message.sendAs?.name ?? realSender;
  // A webhook's messages carry its name as sendAs: who made it, and that a webhook posted it, show beside it.
  const via = message.webhookId ? (appName ? ` via a webhook of ${appName}` : ' via a webhook') : appName ? ` via ${appName}` : '';
  const realSenderLabel = message.sendAs ? `sent by ${realSender}${via}` : undefined;
  const { lookUpSender } = workspace;
  useEffect(() => lookUpSender(message.from, message.appId), [lookUpSender, message.from, message.appId]);
  const time = (
    <time dateTime={new Date(message.timestamp).toISOString()} title={formatFullTime(message.timestamp, workspace.me.timeZone)}>
      {formatTime(message.timestamp, workspace.me.timeZone)}
    </time>
  );
  const changes = useMessageChanges();
  const editing = changes.editing === message.uid;
  const [picking, setPicking] = useState(false);
  const [toolsOpen, setToolsOpen] = useState(false);
  const [cardOpen, setCardOpen] = useState(false);
  const row = useClosedOutside(toolsOpen, setToolsOpen);

  const selecting = selected !== undefined;
  const firstUnread = useContext(FirstUnreadContext) === message.uid;
  const snippet = message.text.length > 40 ? `${message.text.slice(0, 40)}…` : message.text;

  return (
    <>
      {firstUnread && (
        <div className="new-messages-line" role="separator" aria-label="New messages">
          <span>New messages</span>
        </div>
      )}
      <article
        ref={row}
        data-uid={message.uid}
        tabIndex={touchOnly ? -1 : undefined}
        onClick={touchOnly ? () => setToolsOpen(true) : undefined}
        onBlur={touchOnly ? (event) => event.currentTarget.contains(event.relatedTarget) || setToolsOpen(false) : undefined}
        className={`message${toolsOpen ? ' tools-open' : ''}${continued ? ' continued' : ''}${selecting ? ' selecting' : ''}${selected ? ' selected' : ''}${highlighted ? ' highlighted' : ''}${message.pinned ? ' pinned' : ''}`}
        aria-label={realSenderLabel ? `${sender} (${realSenderLabel})` : `${sender}${appName ? ` via ${appName}` : ''}`}
      >
        {selecting && (
          <input
            type="checkbox"
            className="message-select"
            checked={selected}
            aria-label={`Select the message “${snippet}” from ${sender}`}
            onChange={(event) => onToggle?.(message.uid, (event.nativeEvent as MouseEvent).shiftKey === true)}
          />
        )}
        <div className="message-gutter">
          {continued ? (
            <span className="message-hover-time">{time}</span>
          ) : (
            <button type="button" className="avatar-button" tabIndex={-1} aria-hidden="true" onClick={() => setCardOpen(true)}>
              <Avatar name={sender} image={message.sendAs ? message.sendAs.profileImage : workspace.pictureOf(message.from)} />
            </button>
          )}
        </div>
        <div className="message-body">
          {message.pinned && <PinnedMarker by={message.pinned.by} />}
          {!continued && (
            <header className="message-header">
              <button type="button" className="message-sender" aria-haspopup="dialog" onClick={() => setCardOpen(true)}>
                {sender}
              </button>
              {realSenderLabel ? (
                <span className="real-sender" title="The name above is the one the app chose; this is who sent the message">
                  {realSenderLabel}
                </span>
              ) : (
                appName && <span className="via-app">via {appName}</span>
              )}
              {message.visibleTo && <span className="only-you">Only visible to some</span>}
              {time}
            </header>
          )}
          {message.deletedAt !== undefined ? (
            <p className="message-deleted">This message was deleted</p>
          ) : editing ? (
            <MessageEditor message={message} />
          ) : (
            <MessageText message={message} chat={chat} />
          )}
          {message.files && message.files.length > 0 && message.deletedAt === undefined && <MessageFiles files={message.files} />}
          {message.editedAt !== undefined && !editing && <EditedMark message={message} editedAt={message.editedAt} />}
          {message.attachments?.map((attachment, index) => <AttachmentCard key={attachment.id ?? index} attachment={attachment} index={index} message={message} chat={chat} />)}
          <ReactionPills message={message} onAdd={() => setPicking(true)} />
          <ThreadSummaryLine message={message} />
          <ThreadReplyNote message={message} />
        </div>
        {cardOpen && <PersonCard userId={message.from} onClose={() => setCardOpen(false)} />}
        {picking && <EmojiPicker title="Add a reaction" me={workspace.me.id} onPick={(emoji) => changes.toggleReaction(message, emoji)} onClose={() => setPicking(false)} />}
        {!selecting && !editing && (
          <MessageTools message={message} chat={chat} snippet={snippet} onReact={() => setPicking(true)} onSelect={onToggle && (() => onToggle(message.uid, false))} />
        )}
      </article>
    </>
  );
});
