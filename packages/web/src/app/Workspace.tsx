import { lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { StreamDataFrame } from '@aviary/protocol';
import { failureText, methods, sessionApi, type App, type Conversation, type InteractionAnswer, type Person } from '../api/client';
import type { Session } from './session';
import { AppsDirectory } from './AppsDirectory';
import { useUnreadThreads } from './threads/useUnreadThreads';
import { BrowseChannelsDialog } from './BrowseChannelsDialog';
import { CreateChannelDialog } from './CreateChannelDialog';
import { ConversationView } from './ConversationView';
import { fullName } from './format';
import { NewDirectMessageDialog } from './NewDirectMessageDialog';
import { SavedDialog } from './SavedDialog';
import { ShortcutsDialog } from './ShortcutsDialog';
import { QuickSwitcher } from './QuickSwitcher';
import { chatPath, conversationPath, navigate, type Route } from './route';
import { chatAlong } from './chatKeys';
import { Sidebar } from './Sidebar';
import { LoadedPart } from './LoadedPart';
import { Toasts, useToasts } from './Toasts';
import { WidgetPanel, type OpenWidget, type WidgetOrigin } from './WidgetPanel';
import { updatedProfiles, updatedTeam } from '../stream/applyFrames';
import { ConversationList } from '../stream/conversationList';
import { ConnectionBanner } from '../stream/ConnectionBanner';
import { useStream } from '../stream/useStream';
import { useOutbox } from './useOutbox';
import { useSlidingSidebar } from './useSlidingSidebar';
import { forgetReadMarker, isReadHeld } from './useReadMarker';
import { endNotifications, useWorkspaceNotifications } from './notify/useWorkspaceNotifications';
import { unreadTotalsOf } from './notify/tabBadge';
import { PresenceContext, UnreadTotalsContext, WorkspaceContext, type PresenceOf, type Workspace as WorkspaceValue } from './workspaceContext';

// What a person opens now and then is fetched when first opened: the initial script stays small.
const DeveloperArea = lazy(() => import('./dev/DeveloperArea').then((m) => ({ default: m.DeveloperArea })));
const ProfileDialog = lazy(() => import('./ProfileDialog').then((m) => ({ default: m.ProfileDialog })));
const InviteDialog = lazy(() => import('./InviteDialog').then((m) => ({ default: m.InviteDialog })));
const AdminConsole = lazy(() => import('./AdminConsole').then((m) => ({ default: m.AdminConsole })));
const SearchDialog = lazy(() => import('./SearchDialog').then((m) => ({ default: m.SearchDialog })));
const ThreadsDialog = lazy(() => import('./threads/ThreadsDialog').then((m) => ({ default: m.ThreadsDialog })));
const ThreadPanel = lazy(() => import('./threads/ThreadPanel').then((m) => ({ default: m.ThreadPanel })));
const MentionsDialog = lazy(() => import('./notify/MentionsDialog').then((m) => ({ default: m.MentionsDialog })));
const NotificationsDialog = lazy(() => import('./notify/NotificationsDialog').then((m) => ({ default: m.NotificationsDialog })));

/** The signed-in screen: the sidebar, the open conversation (or the apps directory), toasts and widgets. */
export function Workspace({ session, route, onSignOut, onSessionChange }: { session: Session; route: Route; onSignOut: () => void; onSessionChange: (change: (current: Session) => Session) => void }) {
  const [conversations, setConversations] = useState<Conversation[]>();
  const [people, setPeople] = useState<Person[]>([]);
  const [apps, setApps] = useState<App[]>([]);
  const [widget, setWidget] = useState<OpenWidget>();
  const [switcherOpen, setSwitcherOpen] = useState(false);
  const [search, setSearch] = useState<{ query: string }>();
  const [navOpen, setNavOpen] = useState(false);
  const [dialog, setDialog] = useState<'createChannel' | 'browseChannels' | 'newDirectMessage' | 'profile' | 'invite' | 'saved' | 'admin' | 'threads' | 'mentions' | 'notifications' | 'shortcuts'>();
  const toasts = useToasts();

  const refreshApps = useCallback(() => methods.apps.listDirectory().then((answer) => setApps(answer.apps)), []);
  const openChat = route.page === 'chat' ? route.chat : undefined;
  const openChatNow = useRef(openChat);
  openChatNow.current = openChat;
  /**
   * The chat whose new messages count as read when they come: the open one, while the tab is in view
   * (hidden, they wait for the person, and the title counts them) and the person has not marked it unread.
   */
  const readingChat = () => {
    const open = openChatNow.current;
    return document.visibilityState === 'hidden' || (open !== undefined && isReadHeld(open)) ? undefined : open;
  };
  const list = useMemo(() => new ConversationList(session.user.id, setConversations), [session.user.id]);
  // The first load, and each reload: after a send, a join, a gap.
  const refreshConversations = useCallback(async (): Promise<void> => {
    const load = list.startLoad();
    try {
      const applied = list.loaded(load, (await methods.chat.listConversations()).conversations, readingChat());
      if (applied?.reloadApps) void refreshApps();
      if (applied?.reloadConversations) await refreshConversations();
    } finally {
      list.abandon(load);
    }
  }, [list, refreshApps]);
  const refreshRoster = useCallback(() => methods.roster.listContacts().then(setPeople), []);
  // Senders the roster does not list (a deactivated person; for a guest, someone they no longer share a
  // channel with), each asked about once, for their name and picture.
  const [strangers, setStrangers] = useState<Person[]>([]);
  const lookUpPerson = useCallback(async (userId: string) => {
    const roster = await methods.roster.listContacts();
    setPeople(roster);
    if (roster.some((person) => person.id === userId)) return;
    const profile = await methods.users.getPublicProfile({ userId });
    setStrangers((known) => [...known, profile]);
  }, []);
  const reloadAll = useCallback(() => {
    void refreshConversations();
    void refreshApps();
    void refreshRoster();
  }, [refreshConversations, refreshApps, refreshRoster]);
  // The senders and apps already asked about, so that one unknown to the server too is asked about once.
  const lookedUp = useRef(new Set<string>());
  useEffect(reloadAll, [reloadAll]);

  // After a gap the stream could not replay, the open history and thread are reloaded too (in place: the
  // chat's view and the thread's, their composers and uploads in progress stay).
  const [resyncs, setResyncs] = useState(0);
  const unreadThreads = useUnreadThreads(resyncs);
  /** The team's name or icon as the page shows them: changed in the admin console here, or by an admin anywhere (team.updated). */
  const showTeam = useCallback(
    ({ name, icon }: { name: string; icon?: string | undefined }) => onSessionChange((current) => ({ ...current, team: { id: current.team.id, name, ...(icon ? { icon } : {}) } })),
    [onSessionChange],
  );
  /** Who the person is and their team, as the server now has them (a role, a profile, the team's name). */
  const reloadSession = useCallback(() => {
    void sessionApi.getSession().then(
      (answer) => {
        if (answer.user === null) return;
        const next: Session = answer;
        onSessionChange(() => next);
      },
      () => undefined,
    );
  }, [onSessionChange]);
  const [online, setOnline] = useState<ReadonlySet<string>>();
  const connection = useStream(
    (frames) => {
      const profiles = updatedProfiles(frames);
      if (profiles.size > 0) {
        const updated = (known: Person[]) => known.map((person) => (profiles.has(person.id) ? { ...person, status: undefined, profileImage: undefined, ...profiles.get(person.id) } : person));
        setPeople(updated);
        setStrangers(updated);
        if (profiles.has(session.user.id)) reloadSession();
      }
      const team = updatedTeam(frames);
      if (team) showTeam(team);
      const applied = list.apply(frames, readingChat());
      if (!applied) return;
      const removed = removedFrom(frames, session.user.id, openChatNow.current);
      if (removed) {
        forgetReadMarker(removed.id);
        toasts.show(`You are no longer a member of #${removed.name}.`);
        navigate('/', true);
      }
      if (applied.reloadConversations) void refreshConversations();
      if (applied.reloadApps) void refreshApps();
      if (applied.reloadMe) reloadSession();
    },
    // The page loads once on its own; the stream asks again only after a gap it could not replay, which
    // may have held changes of the person or the team too.
    () => {
      reloadAll();
      reloadSession();
      setResyncs((count) => count + 1);
    },
    session.streamCursor,
    setOnline,
  );

  useEffect(() => {
    if (route.page === 'home' && conversations?.[0]) navigate(chatPath(conversations[0].chat), true);
  }, [route.page, conversations]);
  const outbox = useOutbox(connection);
  const [composerFocus, setComposerFocus] = useState(0);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Not behind a dialog: its own keys are its own.
      const along = event.altKey && !event.ctrlKey && !event.metaKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown') && !document.querySelector('dialog[open]');
      if (along) {
        // Alt+↑/↓: the chat above or below in the sidebar; with Shift, the nearest unread one.
        const next = chatAlong(list.current, openChatNow.current, event.key === 'ArrowDown' ? 1 : -1, event.shiftKey);
        event.preventDefault();
        if (next === undefined) return;
        navigate(chatPath(next));
        setComposerFocus((count) => count + 1);
      } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setSwitcherOpen(true);
      } else if ((event.ctrlKey || event.metaKey) && event.key === '/') {
        event.preventDefault();
        setDialog('shortcuts');
      } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        setSearch({ query: '' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [list]);

  const showAnswer = useCallback(
    (answer: InteractionAnswer, origin: WidgetOrigin) => {
      if (answer.kind === 'toast') toasts.show(answer.text);
      else if (answer.kind === 'openWidget') setWidget({ url: answer.url, desktopType: answer.desktopType, origin });
      else if (answer.kind === 'openBrowser') window.open(answer.url, '_blank', 'noopener,noreferrer');
    },
    [toasts],
  );

  // Names change with the person, the roster and the people of direct chats, not with a presence frame or
  // a message: what depends on nameOf (ServiceML, parsed once per message) is not made again for those.
  const directNames = JSON.stringify((conversations ?? []).flatMap((conversation) => (conversation.user ? [[conversation.user.id, fullName(conversation.user)]] : [])));
  const nameOf = useMemo(() => {
    const names = new Map<string, string>([[session.user.id, fullName(session.user)]]);
    for (const person of [...strangers, ...people]) names.set(person.id, fullName(person));
    for (const [id, name] of JSON.parse(directNames) as Array<[string, string]>) names.set(id, name);
    return (userId: string) => names.get(userId);
  }, [session.user, people, strangers, directNames]);

  const value = useMemo<WorkspaceValue>(() => {
    const pictures = new Map<string, string>();
    for (const person of [...strangers, ...people]) if (person.profileImage) pictures.set(person.id, person.profileImage);
    if (session.user.profileImage) pictures.set(session.user.id, session.user.profileImage);
    return {
      me: session.user,
      team: session.team,
      people,
      apps,
      nameOf,
      pictureOf: (userId) => pictures.get(userId),
      appName: (appId) => apps.find((app) => app.id === appId)?.name,
      toast: toasts.show,
      showAnswer,
      act: async (action, origin) => {
        try {
          showAnswer(await action(), origin);
        } catch (error) {
          toasts.show(failureText(error), 'error');
        }
      },
      refreshApps,
      lookUpSender: (userId, appId) => {
        const lookUp = [[userId, nameOf(userId) !== undefined, () => lookUpPerson(userId)], [appId, apps.some((app) => app.id === appId), refreshApps]] as const;
        for (const [id, known, ask] of lookUp) {
          if (id === undefined || known || lookedUp.current.has(id)) continue;
          lookedUp.current.add(id);
          void ask().catch(() => undefined);
        }
      },
      refreshConversations,
      updateMe: (user) => onSessionChange((current) => ({ ...current, user })),
      updateTeam: showTeam,
      outbox,
    };
  }, [session, people, strangers, apps, nameOf, toasts, showAnswer, refreshApps, lookUpPerson, refreshConversations, onSessionChange, showTeam, outbox]);
  const presenceOf = useMemo<PresenceOf>(() => {
    const bots = new Set(people.filter((person) => person.isBot).map((person) => person.id));
    return (userId) => (online === undefined || bots.has(userId) ? undefined : online.has(userId) ? 'online' : 'away');
  }, [people, online]);

  useWorkspaceNotifications(session.user.id, conversations, value.nameOf);
  // A dialog opened from the sidebar on a phone takes its place: closed, the dialog leaves the chat in view.
  useEffect(() => {
    if (dialog !== undefined || switcherOpen || search !== undefined) setNavOpen(false);
  }, [dialog, switcherOpen, search]);
  const unreadTotals = useMemo(() => unreadTotalsOf(conversations), [conversations]);
  const current = route.page === 'chat' ? conversations?.find((conversation) => conversation.chat === route.chat) : undefined;
  // The open thread is part of the address (`?thread=`): closing it leaves the conversation as it was.
  const thread = route.page === 'chat' ? route.thread : undefined;
  const closeThread = useCallback(() => route.page === 'chat' && navigate(conversationPath(route.chat, { message: route.message })), [route]);
  const closeNav = useCallback(() => setNavOpen(false), []);
  useSlidingSidebar(navOpen, closeNav);
  const layout = ['workspace', navOpen && 'nav-open', widget?.desktopType === 'sidebar' && 'with-panel', thread && 'with-thread'].filter(Boolean).join(' ');

  return (
    <WorkspaceContext.Provider value={value}>
      <PresenceContext.Provider value={presenceOf}>
        <UnreadTotalsContext.Provider value={unreadTotals}>
        <div className={layout}>
          {navOpen && <div className="nav-backdrop" aria-hidden="true" onClick={closeNav} />}
          <Sidebar
            conversations={conversations}
            selected={route.page === 'chat' ? route.chat : undefined}
            appsSelected={route.page === 'apps'}
            developerSelected={route.page === 'dev'}
            onNavigate={closeNav}
            onOpenSwitcher={() => setSwitcherOpen(true)}
            onSignOut={() => void endNotifications().finally(onSignOut)}
            onCreateChannel={() => setDialog('createChannel')}
            onBrowseChannels={() => setDialog('browseChannels')}
            onNewDirectMessage={() => setDialog('newDirectMessage')}
            onEditProfile={() => setDialog('profile')}
            onInvite={() => setDialog('invite')}
            onOpenSaved={() => setDialog('saved')}
            onOpenAdmin={() => setDialog('admin')}
            onOpenThreads={() => setDialog('threads')}
            unreadThreads={unreadThreads}
            onOpenMentions={() => setDialog('mentions')}
            onOpenNotifications={() => setDialog('notifications')}
          />
          <main className="main" id="main">
            <ConnectionBanner state={connection} />
            {route.page === 'apps' ? (
              <AppsDirectory onMenu={() => setNavOpen(true)} />
            ) : route.page === 'dev' ? (
              <LoadedPart retryKey={route.app}>
                <DeveloperArea appId={route.app} onMenu={() => setNavOpen(true)} />
              </LoadedPart>
            ) : route.page === 'chat' ? (
              <ConversationView
                key={route.chat}
                chat={route.chat}
                reloads={resyncs}
                live={connection === 'live'}
                target={route.message}
                thread={route.thread}
                conversation={current}
                focusSignal={composerFocus}
                onMenu={() => setNavOpen(true)}
                onSent={refreshConversations}
              />
            ) : (
              <p className="page-message">{conversations?.length === 0 ? 'No conversations yet.' : 'Loading…'}</p>
            )}
          </main>
          {widget && <WidgetPanel widget={widget} onClose={() => setWidget(undefined)} />}
          {route.page === 'chat' && thread && (
            <LoadedPart retryKey={`${route.chat}:${thread}`} onDismiss={closeThread}>
              <ThreadPanel key={`${route.chat}:${thread}`} chat={route.chat} root={thread} reloads={resyncs} archived={current?.channel?.archivedAt !== undefined} onClose={closeThread} />
            </LoadedPart>
          )}
        </div>
        {switcherOpen && conversations && (
          <QuickSwitcher conversations={conversations} onClose={() => setSwitcherOpen(false)} onChosen={() => setComposerFocus((count) => count + 1)} onSearch={(query) => setSearch({ query })} />
        )}
        {dialog === 'createChannel' && <CreateChannelDialog onClose={() => setDialog(undefined)} />}
        {dialog === 'browseChannels' && <BrowseChannelsDialog onClose={() => setDialog(undefined)} />}
        {dialog === 'newDirectMessage' && <NewDirectMessageDialog onClose={() => setDialog(undefined)} />}
        {dialog === 'shortcuts' && <ShortcutsDialog onClose={() => setDialog(undefined)} />}
        <LoadedPart
          retryKey={`${dialog ?? ''}|${search ? 'search' : ''}`}
          onDismiss={() => {
            setDialog(undefined);
            setSearch(undefined);
          }}
        >
          {dialog === 'profile' && <ProfileDialog onClose={() => setDialog(undefined)} />}
          {dialog === 'invite' && <InviteDialog onClose={() => setDialog(undefined)} />}
          {dialog === 'admin' && session.user.role === 'admin' && <AdminConsole onClose={() => setDialog(undefined)} />}
          {dialog === 'saved' && <SavedDialog conversations={conversations} onClose={() => setDialog(undefined)} />}
          {search && <SearchDialog conversations={conversations} initialQuery={search.query} onClose={() => setSearch(undefined)} />}
          {dialog === 'threads' && <ThreadsDialog conversations={conversations} onClose={() => setDialog(undefined)} />}
          {dialog === 'mentions' && <MentionsDialog me={session.user.id} conversations={conversations} onClose={() => setDialog(undefined)} />}
          {dialog === 'notifications' && <NotificationsDialog conversation={current} onClose={() => setDialog(undefined)} />}
        </LoadedPart>
        <Toasts toasts={toasts.list} onDismiss={toasts.dismiss} />
        </UnreadTotalsContext.Provider>
      </PresenceContext.Provider>
    </WorkspaceContext.Provider>
  );
}

/** The name of the open channel a batch took the person out of (removed, or left on another device), if any. */
function removedFrom(frames: StreamDataFrame[], me: string, openChat: string | undefined): { id: string; name: string } | undefined {
  for (const frame of frames) if (frame.type === 'channel.membersRemoved' && frame.channel.id === openChat && frame.userIds.includes(me)) return frame.channel;
  return undefined;
}
