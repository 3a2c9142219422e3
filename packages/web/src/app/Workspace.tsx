import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, type App, type Conversation, type InteractionAnswer, type Person } from '../api/client';
import type { Session } from './session';
import { AppsDirectory } from './AppsDirectory';
import { BrowseChannelsDialog } from './BrowseChannelsDialog';
import { CreateChannelDialog } from './CreateChannelDialog';
import { ConversationView } from './ConversationView';
import { DeveloperArea } from './dev/DeveloperArea';
import { fullName } from './format';
import { QuickSwitcher } from './QuickSwitcher';
import { chatPath, navigate, type Route } from './route';
import { Sidebar } from './Sidebar';
import { Toasts, useToasts } from './Toasts';
import { WidgetPanel, type OpenWidget, type WidgetOrigin } from './WidgetPanel';
import { applyFrames } from '../stream/applyFrames';
import { ConnectionBanner } from '../stream/ConnectionBanner';
import { useStream } from '../stream/useStream';
import { WorkspaceContext, type Workspace as WorkspaceValue } from './workspaceContext';

/** The signed-in screen: the sidebar, the open conversation (or the apps directory), toasts and widgets. */
export function Workspace({ session, route, onSignOut }: { session: Session; route: Route; onSignOut: () => void }) {
  const [conversations, setConversations] = useState<Conversation[]>();
  const [people, setPeople] = useState<Person[]>([]);
  const [apps, setApps] = useState<App[]>([]);
  const [widget, setWidget] = useState<OpenWidget>();
  const [switcherOpen, setSwitcherOpen] = useState(false);
  const [navOpen, setNavOpen] = useState(false);
  const [dialog, setDialog] = useState<'createChannel' | 'browseChannels'>();
  const toasts = useToasts();

  const refreshConversations = useCallback(() => api.conversations().then((answer) => setConversations(answer.conversations)), []);
  const refreshApps = useCallback(() => api.apps().then((answer) => setApps(answer.apps)), []);
  const reloadAll = useCallback(() => {
    void refreshConversations();
    void refreshApps();
    void api.roster().then((answer) => setPeople(answer.people));
  }, [refreshConversations, refreshApps]);
  useEffect(reloadAll, [reloadAll]);

  const openChat = route.page === 'chat' ? route.chat : undefined;
  // After a gap the stream could not replay, the open history is reloaded too (a new key remounts it).
  const [resyncs, setResyncs] = useState(0);
  const hellos = useRef(0);
  const connection = useStream(
    (frames) => {
      if (!conversations) return; // the load in flight already holds them
      const applied = applyFrames(conversations, frames, session.user.id, openChat);
      setConversations(applied.conversations);
      if (applied.reloadConversations) void refreshConversations();
      if (applied.reloadApps) void refreshApps();
    },
    () => {
      reloadAll();
      if (hellos.current++ > 0) setResyncs((count) => count + 1);
    },
  );

  useEffect(() => {
    if (route.page === 'home' && conversations?.[0]) navigate(chatPath(conversations[0].chat), true);
  }, [route.page, conversations]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setSwitcherOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const showAnswer = useCallback(
    (answer: InteractionAnswer, origin: WidgetOrigin) => {
      if (answer.kind === 'toast') toasts.show(answer.text);
      else if (answer.kind === 'openWidget') setWidget({ url: answer.url, desktopType: answer.desktopType, origin });
      else if (answer.kind === 'openBrowser') window.open(answer.url, '_blank', 'noopener,noreferrer');
    },
    [toasts],
  );

  const value = useMemo<WorkspaceValue>(() => {
    const names = new Map<string, string>([[session.user.id, fullName(session.user)]]);
    for (const person of people) names.set(person.id, fullName(person));
    for (const conversation of conversations ?? []) if (conversation.user) names.set(conversation.user.id, fullName(conversation.user));
    return {
      me: session.user,
      team: session.team,
      people,
      apps,
      nameOf: (userId) => names.get(userId),
      appName: (appId) => apps.find((app) => app.id === appId)?.name,
      toast: toasts.show,
      showAnswer,
      act: async (action, origin) => {
        try {
          showAnswer(await action(), origin);
        } catch (error) {
          toasts.show((error as Error).message, 'error');
        }
      },
      refreshApps,
      refreshConversations,
    };
  }, [session, people, apps, conversations, toasts, showAnswer, refreshApps, refreshConversations]);

  const current = route.page === 'chat' ? conversations?.find((conversation) => conversation.chat === route.chat) : undefined;

  return (
    <WorkspaceContext.Provider value={value}>
      <div className={`workspace${navOpen ? ' nav-open' : ''}${widget?.desktopType === 'sidebar' ? ' with-panel' : ''}`}>
        <Sidebar
          conversations={conversations}
          selected={route.page === 'chat' ? route.chat : undefined}
          appsSelected={route.page === 'apps'}
          developerSelected={route.page === 'dev'}
          onNavigate={() => setNavOpen(false)}
          onOpenSwitcher={() => setSwitcherOpen(true)}
          onSignOut={onSignOut}
          onCreateChannel={() => setDialog('createChannel')}
          onBrowseChannels={() => setDialog('browseChannels')}
        />
        <main className="main" id="main">
          {route.page === 'apps' ? (
            <AppsDirectory onMenu={() => setNavOpen(true)} />
          ) : route.page === 'dev' ? (
            <DeveloperArea appId={route.app} onMenu={() => setNavOpen(true)} />
          ) : route.page === 'chat' ? (
            <ConversationView key={`${route.chat}:${resyncs}`} chat={route.chat} conversation={current} onMenu={() => setNavOpen(true)} onSent={refreshConversations} />
          ) : (
            <p className="page-message">{conversations?.length === 0 ? 'No conversations yet.' : 'Loading…'}</p>
          )}
        </main>
        {widget && <WidgetPanel widget={widget} onClose={() => setWidget(undefined)} />}
      </div>
      {switcherOpen && conversations && <QuickSwitcher conversations={conversations} onClose={() => setSwitcherOpen(false)} />}
      <ConnectionBanner state={connection} />
      {dialog === 'createChannel' && <CreateChannelDialog onClose={() => setDialog(undefined)} />}
      {dialog === 'browseChannels' && <BrowseChannelsDialog onClose={() => setDialog(undefined)} />}
      <Toasts toasts={toasts.list} onDismiss={toasts.dismiss} />
    </WorkspaceContext.Provider>
  );
}
