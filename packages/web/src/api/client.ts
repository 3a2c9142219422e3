/**
 * Every call the web client makes to the server, in one place: sessions, the person's chats and
 * history, sending, apps and the actions on them. Components never call fetch themselves, so moving to
 * the protocol's typed route client changes this module only. Requests go to the page's own origin with
 * the session cookie (HttpOnly: the page never sees the token).
 */
import type { Attachment, ChannelModel, InteractionAnswer, MessageModel, PublicProfileModel, UserModel } from '@aviary/protocol';

export type Message = MessageModel;
export type User = UserModel;
export type { Attachment, InteractionAnswer };

export interface Team {
  id: string;
  name: string;
}

export interface Conversation {
  chat: string;
  kind: 'channel' | 'direct';
  name: string;
  channel?: ChannelModel;
  user?: PublicProfileModel & { isBot?: boolean };
  lastMessage?: Message;
  /** The last message the person read, and the messages from others after it (mentions among them). */
  readUpTo?: string;
  unread?: number;
  mentions?: number;
}

export type Person = PublicProfileModel & { isBot?: boolean };

export interface SlashCommand {
  name: string;
  description?: string;
}

export interface AppButton {
  name: string;
}

export interface App {
  id: string;
  name: string;
  description: string;
  icon?: string;
  botUserId?: string;
  installable: boolean;
  installed: boolean;
  disabledByUser: boolean;
  disabledByTeam: boolean;
  integrations: {
    slashCommands: SlashCommand[];
    launcherButton?: AppButton;
    chatTabButton?: AppButton;
    attachmentPickerButton?: AppButton;
    messageAction?: AppButton;
  };
}

/** An error answer of the API: its code, description and context (`parameter`, `teams`…). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    description: string,
    readonly details: Record<string, unknown>,
  ) {
    super(description);
  }
}

export interface TeamChoice {
  id: string;
  name: string;
}

export type SendResult = { message: Message } | { slashCommand: { appId: string; command: string }; answer: InteractionAnswer };

/** The ids an action's answer needs to name what was pressed. */
export type ButtonPress =
  | { appId: string; button: 'appLauncherButton' | 'chatTabButton' | 'attachmentPickerButton'; chat: string }
  | { messageUid: string; attachmentId: string; buttonId: string };

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { accept: 'application/json', 'content-type': 'application/json' };
  }
  const response = await fetch(path, init);
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const { error, description, ...details } = answer;
    throw new ApiFailure(
      response.status,
      typeof error === 'string' ? error : 'UnexpectedAnswer',
      typeof description === 'string' ? description : `The server answered ${response.status}.`,
      details,
    );
  }
  return answer as T;
}

export const post = <T>(path: string, body: unknown = {}) => request<T>('POST', path, body);
export const query = (fields: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(fields).filter((entry): entry is [string, string | number] => entry[1] !== undefined).map(([k, v]) => [k, String(v)]));

export const api = {
  signIn: (email: string, password: string, teamId?: string) => post<{ user: User }>('/api/session', { email, password, teamId }),
  signOut: () => request<object>('DELETE', '/api/session'),
  /** The signed-in person and their team, or NotSignedIn. */
  whoAmI: () => request<{ user: User; team: Team }>('GET', '/api/session'),
  team: () => request<{ team: Team }>('GET', '/api/client/team'),
  roster: () => request<{ people: Person[] }>('GET', '/api/client/roster'),
  conversations: () => request<{ conversations: Conversation[] }>('GET', '/api/client/conversations'),
  history: (chat: string, page: { before?: string; limit?: number } = {}) =>
    request<{ messages: Message[] }>('GET', `/api/client/messages?${query({ chat, ...page })}`),
  markRead: (chat: string, uid: string) =>
    post<{ chat: string; readUpTo: string; unread: number; mentions: number }>('/api/client/conversations/read', { chat, uid }),
  send: (to: string, text: string, serviceml?: string) => post<SendResult>('/api/client/messages', { to, text, serviceml }),
  apps: () => request<{ apps: App[] }>('GET', '/api/client/apps'),
  install: (appId: string) => post<{ installed: boolean }>(`/api/client/apps/${encodeURIComponent(appId)}/install`),
  uninstall: (appId: string) => post<{ installed: boolean }>(`/api/client/apps/${encodeURIComponent(appId)}/uninstall`),
  setEnabled: (appId: string, enabled: boolean) =>
    post<{ disabledByUser: boolean }>(`/api/client/apps/${encodeURIComponent(appId)}/${enabled ? 'enable' : 'disable'}`),
  pressButton: (press: ButtonPress) => post<InteractionAnswer>('/api/client/actions/pressButton', { ...press, client: 'desktop' }),
  messageAction: (appId: string, chat: string, messageUids: string[]) =>
    post<InteractionAnswer>('/api/client/actions/messageAction', { appId, chat, messageUids, client: 'desktop' }),
  servicemlAction: (messageUid: string, actionId: string, attachmentId?: string) =>
    post<InteractionAnswer>('/api/client/actions/servicemlAction', { messageUid, actionId, attachmentId, client: 'desktop' }),
  openAttachmentWidget: (messageUid: string, attachmentId: string) =>
    post<InteractionAnswer>('/api/client/actions/openAttachmentWidget', { messageUid, attachmentId, client: 'desktop' }),
  widgetAction: (call: { appId: string; kind: 'openWidget' | 'openBrowser'; url: string; desktopType?: string; sendContext?: boolean; chat?: string; messageUid?: string; attachmentId?: string }) =>
    post<InteractionAnswer>('/api/client/actions/widgetAction', { ...call, client: 'desktop' }),
};
