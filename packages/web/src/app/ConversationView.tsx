import { useCallback } from 'react';
import { api, type Conversation, type Message } from '../api/client';
import { Composer } from './Composer';
import { HistoryList } from './HistoryList';
import { ConversationIcon } from './Sidebar';
import { useHistory } from './useHistory';
import { useWorkspace } from './workspaceContext';

/** The open chat: its header (with the apps' chat-tab buttons), its history and the composer. */
export function ConversationView({ chat, conversation, onMenu, onSent }: { chat: string; conversation?: Conversation | undefined; onMenu: () => void; onSent: () => void }) {
  const workspace = useWorkspace();
  const history = useHistory(chat);
  const name = conversation?.name ?? workspace.nameOf(chat) ?? 'Conversation';
  const tabButtons = workspace.apps.filter((app) => app.installed && !app.disabledByUser && !app.disabledByTeam && app.integrations.chatTabButton);
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
        <button type="button" className="icon-button menu-button" aria-label="Show conversations" onClick={onMenu}>
          ☰
        </button>
        {conversation && <ConversationIcon conversation={conversation} />}
        <div className="conversation-heading">
          <h1 id="conversation-title">{name}</h1>
          {conversation?.channel?.purpose && <p className="conversation-purpose">{conversation.channel.purpose}</p>}
        </div>
        {conversation?.channel && <span className="member-count">{conversation.channel.memberCount} members</span>}
        <div className="tab-buttons">
          {tabButtons.map((app) => (
            <button
              key={app.id}
              type="button"
              className="secondary"
              onClick={() => workspace.act(() => api.pressButton({ appId: app.id, button: 'chatTabButton', chat }), { appId: app.id, chat })}
            >
              {app.integrations.chatTabButton!.name}
            </button>
          ))}
        </div>
      </header>
      <HistoryList history={history} chat={chat} />
      <Composer chat={chat} placeholder={`Message ${conversation?.kind === 'channel' ? '#' : ''}${name}`} onSent={sent} />
    </section>
  );
}
