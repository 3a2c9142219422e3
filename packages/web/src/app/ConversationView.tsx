import { useCallback, useEffect, useMemo, useState } from 'react';
import { chatOf } from '../stream/applyFrames';
import { useStreamFrames } from '../stream/useStream';
import { methods, type Conversation, type Message } from '../api/client';
import { appsWith, ChatButton } from './AppButtons';
import { Composer } from './Composer';
import { HistoryList } from './HistoryList';
import { MembersDialog } from './MembersDialog';
import { SelectionBar } from './SelectionBar';
import { ConversationIcon } from './Sidebar';
import { TypingIndicator, useTypingSignal } from './TypingIndicator';
import { useHistory } from './useHistory';
import { useSelection } from './useSelection';
import { useWorkspace } from './workspaceContext';
import { MenuButton } from './PageHeader';

/** The open chat: its header (with the apps' chat-tab buttons), its history and the composer. */
export function ConversationView({ chat, conversation, onMenu, onSent }: { chat: string; conversation?: Conversation | undefined; onMenu: () => void; onSent: () => void }) {
  const workspace = useWorkspace();
  const history = useHistory(chat);
  const typed = useTypingSignal(chat);
  const [membersOpen, setMembersOpen] = useState(false);
  const order = useMemo(() => history.messages.map((message) => message.uid), [history.messages]);
  const selection = useSelection(order);
  const name = conversation?.name ?? workspace.nameOf(chat) ?? 'Conversation';
  const tabButtons = appsWith(workspace.apps, 'chatTabButton');
  useStreamFrames((frames) => {
    const mine = (type: string) => frames.flatMap((frame) => (frame.type === type && 'message' in frame && chatOf(frame.message, workspace.me.id) === chat ? [frame.message] : []));
    const created = mine('message.created');
    const updated = mine('message.updated');
    if (created.length > 0) history.add(created);
    if (updated.length > 0) history.replace(updated);
  });
  useMarkRead(chat, history.messages.at(-1), conversation?.unread ?? 0, workspace.me.id);
  const sent = useCallback(
    (message: Message) => {
      history.add([message]);
      onSent();
    },
    [history, onSent],
  );

  return (
    <section className="conversation" aria-labelledby="conversation-title">
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
        <div className="tab-buttons">
          {tabButtons.map((app) => (
            <ChatButton key={app.id} app={app} button="chatTabButton" chat={chat} className="secondary">
              {app.integrations.chatTabButton!.name}
            </ChatButton>
          ))}
        </div>
      </header>
      {membersOpen && conversation?.channel && <MembersDialog channel={conversation.channel} onClose={() => setMembersOpen(false)} />}
      <HistoryList history={history} chat={chat} selection={selection} />
      {selection.active && <SelectionBar selection={selection} chat={chat} />}
      <TypingIndicator chat={chat} />
      <div className="typing-watch" onInput={typed}>
        <Composer chat={chat} placeholder={`Message ${conversation?.kind === 'channel' ? '#' : ''}${name}`} onSent={sent} />
      </div>
    </section>
  );
}

/** While the chat is open and the page visible, what arrives from others is read: the marker follows it. */
function useMarkRead(chat: string, last: Message | undefined, unread: number, me: string) {
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  const uid = last?.uid;
  const fromOthers = last !== undefined && last.from !== me;
  useEffect(() => {
    if (!uid || !visible || (unread === 0 && !fromOthers)) return;
    methods.chat.markRead({ chat, uid }).catch(() => undefined); // a refused marker only leaves the badge; nothing to tell the person
  }, [chat, uid, visible, unread, fromOthers]);
}
