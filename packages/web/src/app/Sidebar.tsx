import { levelOf, type PresenceStatus } from '@aviary/protocol';
import type { MouseEvent, ReactNode } from 'react';
import { methods, type Conversation } from '../api/client';
import { appsWith } from './AppButtons';
import { sidebarLists } from './chatKeys';
import { AppHomeLinks } from './AppHome';
import { Avatar, PresenceText, sized } from './Avatar';
import { StatusText } from './StatusText';
import './people.css';
import { fullName } from './format';
import { chatPath, navigate } from './route';
import { usePresence, useWorkspace, type PresenceOf } from './workspaceContext';
import { useDraftedChats } from './drafts';
import { ChatBadges } from './notify/ChatBadges';
import { NotificationPrompt } from './notify/NotificationPrompt';
import { LocalTime } from './LocalTime';
import { useNotificationSettings } from './notify/settingsStore';

interface SidebarProps {
  conversations: Conversation[] | undefined;
  selected: string | undefined;
  appsSelected: boolean;
  developerSelected: boolean;
  onNavigate: () => void;
  onOpenSwitcher: () => void;
  onSignOut: () => void;
  onCreateChannel: () => void;
  onBrowseChannels: () => void;
  onNewDirectMessage: () => void;
  onEditProfile: () => void;
  onInvite: () => void;
  onOpenSaved: () => void;
  onOpenAdmin: () => void;
  onOpenThreads?: () => void;
  /** Followed threads with replies not read yet (useUnreadThreads). */
  unreadThreads?: number;
  onOpenMentions: () => void;
  onOpenNotifications: () => void;
}

/** The team, the person's channels and direct chats, the app launcher and the person's own menu. */
export function Sidebar(props: SidebarProps) {
  const { conversations, selected, appsSelected, developerSelected, onNavigate, onOpenSwitcher, onSignOut, onCreateChannel, onBrowseChannels } = props;
  const workspace = useWorkspace();
  const { channels, directs } = sidebarLists(conversations);
  const drafted = useDraftedChats(workspace.me.id);
  const launchers = appsWith(workspace.apps, 'launcherButton');

  const go = (path: string) => (event: MouseEvent) => {
    event.preventDefault();
    navigate(path);
    onNavigate();
  };

  return (
    <nav className="sidebar" aria-label="Conversations">
      <header className="sidebar-header">
        <div className="team-name" title={workspace.team.name}>
          {workspace.team.icon ? (
            <img className="brand-mark brand-icon" src={sized(workspace.team.icon, 64)} alt="" />
          ) : (
            <span className="brand-mark" aria-hidden="true">
              {[...workspace.team.name][0]?.toUpperCase() ?? 'A'}
            </span>
          )}
          <span>{workspace.team.name}</span>
        </div>
        <button type="button" className="switcher-button" onClick={onOpenSwitcher} aria-keyshortcuts="Control+K Meta+K">
          Jump to… <kbd>Ctrl K</kbd>
        </button>
      </header>
      <div className="sidebar-scroll">
        <ConversationList
          drafted={drafted}
          title="Channels"
          items={channels}
          selected={selected}
          go={go}
          action={
            <button type="button" className="sidebar-add" aria-label="Create a channel" title="Create a channel" onClick={onCreateChannel}>
              +
            </button>
          }
        />
        <button type="button" className="sidebar-item sidebar-browse" onClick={onBrowseChannels}>
          Browse channels
        </button>
        <button type="button" className="sidebar-item sidebar-browse" aria-haspopup="dialog" onClick={props.onOpenSaved}>
          Saved items
        </button>
        <button type="button" className={`sidebar-item sidebar-browse${props.unreadThreads ? ' unread' : ''}`} aria-haspopup="dialog" onClick={props.onOpenThreads}>
          Threads
          <ChatBadges unread={props.unreadThreads} />
        </button>
        <button type="button" className="sidebar-item sidebar-browse" aria-haspopup="dialog" onClick={props.onOpenMentions}>
          Mentions
        </button>
        <button type="button" className="sidebar-item sidebar-browse" aria-haspopup="dialog" onClick={props.onOpenNotifications}>
          Notifications
        </button>
        <ConversationList
          drafted={drafted}
          title="Direct messages"
          items={directs}
          selected={selected}
          go={go}
          action={
            <button type="button" className="sidebar-add" aria-label="New direct message" title="New direct message" onClick={props.onNewDirectMessage}>
              +
            </button>
          }
        />
        <section aria-labelledby="sidebar-apps">
          <h2 id="sidebar-apps" className="sidebar-title">
            Apps
          </h2>
          <ul className="sidebar-list">
            <li>
              <a href="/apps" className={`sidebar-item${appsSelected ? ' selected' : ''}`} aria-current={appsSelected ? 'page' : undefined} onClick={go('/apps')}>
                <span className="sidebar-icon" aria-hidden="true">
                  ▦
                </span>
                App directory
              </a>
            </li>
            <li>
              <a href="/dev" className={`sidebar-item${developerSelected ? ' selected' : ''}`} aria-current={developerSelected ? 'page' : undefined} onClick={go('/dev')}>
                <span className="sidebar-icon" aria-hidden="true">
                  ⚙
                </span>
                Developer
              </a>
            </li>
            <AppHomeLinks />
            {launchers.map((app) => (
              <li key={app.id}>
                <button
                  type="button"
                  className="sidebar-item"
                  onClick={() => selected && workspace.act(() => methods.interactions.pressButton({ appId: app.id, button: 'appLauncherButton', chat: selected }), { appId: app.id, chat: selected })}
                  disabled={!selected}
                >
                  <span className="sidebar-icon" aria-hidden="true">
                    ◆
                  </span>
                  {app.integrations.launcherButton!.name}
                </button>
              </li>
            ))}
          </ul>
        </section>
      </div>
      {/* Outside the scrolling list, so the list scrolls under nothing and the card is always whole. */}
      <NotificationPrompt />
      <footer className="sidebar-footer">
        <button type="button" className="me-button" aria-haspopup="dialog" onClick={props.onEditProfile}>
          <span className="visually-hidden">Your profile: </span>
          <Avatar name={fullName(workspace.me)} image={workspace.me.profileImage} />
          <span className="me">
            <span className="me-name">{fullName(workspace.me)}</span>
            <span className="me-detail">
              <LocalTime zone={workspace.me.timeZone} />
            </span>
          </span>
        </button>
        {workspace.me.role === 'admin' && (
          <button type="button" className="quiet sign-out" aria-haspopup="dialog" onClick={props.onOpenAdmin}>
            Admin console
          </button>
        )}
        {workspace.me.role !== 'guest' && (
          <button type="button" className="quiet sign-out" aria-haspopup="dialog" onClick={props.onInvite}>
            Invite people
          </button>
        )}
        <button type="button" className="quiet sign-out" onClick={onSignOut}>
          Sign out
        </button>
      </footer>
    </nav>
  );
}

interface ConversationListProps {
  title: string;
  items: Conversation[];
  selected?: string;
  /** The chats holding a draft (drafts.ts), marked unless open. */
  drafted: Set<string>;
  go: (path: string) => (event: MouseEvent) => void;
  /** A button beside the heading (the channels' "+"). */
  action?: ReactNode;
}

function ConversationList({ title, items, selected, drafted, go, action }: ConversationListProps) {
  const workspace = useWorkspace();
  const presenceOf = usePresence();
  const settings = useNotificationSettings();
  const id = `sidebar-${title.replace(/\s+/g, '-').toLowerCase()}`;
  return (
    <section aria-labelledby={id}>
      <div className="sidebar-title-row">
        <h2 id={id} className="sidebar-title">
          {title}
        </h2>
        {action}
      </div>
      {items.length === 0 ? (
        <p className="sidebar-empty">None yet</p>
      ) : (
        <ul className="sidebar-list">
          {items.map((conversation) => (
            <li key={conversation.chat}>
              <a
                href={chatPath(conversation.chat)}
                className={`sidebar-item${conversation.chat === selected ? ' selected' : ''}`}
                aria-current={conversation.chat === selected ? 'page' : undefined}
                onClick={go(chatPath(conversation.chat))}
              >
                <ConversationIcon conversation={conversation} />
                <span className="sidebar-label">
                  {conversation.name}
                  <StatusText status={workspace.people.find((person) => person.id === conversation.user?.id)?.status} />
                  <PresenceText presence={directPresence(conversation, presenceOf)} />
                </span>
                {drafted.has(conversation.chat) && conversation.chat !== selected && (
                  <span className="draft-mark" role="img" aria-label="draft" title="You have a draft here">
                    ✎
                  </span>
                )}
                <ChatBadges unread={conversation.unread} mentions={conversation.mentions} muted={settings !== undefined && levelOf(settings, conversation.chat) === 'mute'} />
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ConversationIcon({ conversation }: { conversation: Conversation }) {
  const presenceOf = usePresence();
  if (conversation.kind === 'channel') {
    return (
      <span className="sidebar-icon" aria-hidden="true">
        {conversation.channel?.type === 'private' ? <LockIcon /> : '#'}
      </span>
    );
  }
  return <Avatar name={conversation.name} image={conversation.user?.profileImage} small presence={directPresence(conversation, presenceOf)} />;
}

/** The other person's presence in a direct chat (none for a bot's). */
const directPresence = (conversation: Conversation, presenceOf: PresenceOf): PresenceStatus | undefined =>
  conversation.user && !conversation.user.isBot ? presenceOf(conversation.user.id) : undefined;

/** Drawn, not an emoji: emoji fonts are missing on many systems. */
function LockIcon() {
  return (
    <svg className="lock-icon" viewBox="0 0 16 16" width="13" height="13" aria-hidden="true" focusable="false">
      <rect x="3" y="7" width="10" height="7" rx="1.5" fill="currentColor" />
      <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  );
}
