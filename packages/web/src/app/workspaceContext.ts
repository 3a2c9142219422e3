import type { PresenceStatus } from '@aviary/protocol';
import { createContext, useContext } from 'react';
import type { App, InteractionAnswer, Person, Team, User } from '../api/client';
import type { Outbox } from './useOutbox';
import type { WidgetOrigin } from './widgetOrigin';

/** What every part of the signed-in screen needs: who, the team's people and apps, and how to answer an action. */
export interface Workspace {
  me: User;
  team: Team;
  people: Person[];
  apps: App[];
  nameOf(userId: string): string | undefined;
  /** A person's picture (profileImage), when the page knows them and they have one. */
  pictureOf(userId: string): string | undefined;
  appName(appId: string): string | undefined;
  toast(text: string, tone?: 'info' | 'error'): void;
  /** Follows an action's answer: a toast, a widget, a browser tab. */
  showAnswer(answer: InteractionAnswer, origin: WidgetOrigin): void;
  /** Runs an action and follows its answer; a refusal becomes an error toast. */
  act(action: () => Promise<InteractionAnswer>, origin: WidgetOrigin): Promise<void>;
  refreshApps(): Promise<void>;
  /** A message names a sender or app this page does not know yet (new since it loaded): asks once for the roster and apps again. */
  lookUpSender(userId: string, appId: string | undefined): void;
  refreshConversations(): Promise<void>;
  /** The person's messages on their way to the server (pending while it cannot be reached). */
  outbox: Outbox;
  /** The person's own profile changed (here, or on another of their devices). */
  updateMe(user: User): void;
  /** The team's name or icon changed (the admin console). */
  updateTeam(team: { name: string; icon?: string | undefined }): void;
}

export const WorkspaceContext = createContext<Workspace | null>(null);

/** Whether a person is online or away; undefined for a bot, and while the stream has not said. */
export type PresenceOf = (userId: string) => PresenceStatus | undefined;

/**
 * Presence has a context of its own: it changes with every presence frame, and only what shows it (the
 * sidebar's direct chats, the members list, the profile) is drawn again then, not every message row.
 */
export const PresenceContext = createContext<PresenceOf>(() => undefined);

export const usePresence = (): PresenceOf => useContext(PresenceContext);

/** The unread messages, and those mentioning the person, of every conversation (unreadTotalsOf). */
export interface UnreadTotals {
  unread: number;
  mentions: number;
}

/** For what must say so where the sidebar is out of sight (the ☰ button on a phone). */
export const UnreadTotalsContext = createContext<UnreadTotals>({ unread: 0, mentions: 0 });

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error('useWorkspace outside a Workspace');
  return workspace;
}
