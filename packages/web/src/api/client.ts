/**
 * Every call the web client makes to the server: the typed method client of @aviary/protocol (the same
 * one the SDK's AviaryClient sends its calls with) for the /v1 methods, and the typed route client for
 * signing in and out (/api/session), all built from the definitions the server runs.
 * Components never call fetch themselves. Requests go to the page's own origin with the session cookie
 * (HttpOnly: the page never sees the token); a refusal throws AviaryApiError with the error's code,
 * parameter and description.
 */
import {
  AviaryApiError,
  createMethodClient,
  createRouteClient,
  sessionRoutes,
  type Attachment,
  type ChannelModel,
  type ClientApp,
  type Contact,
  type Conversation,
  type InteractionAnswer,
  type MessageModel,
  type RouteResultOf,
  type UserModel,
} from '@aviary/protocol';

/** The /v1 methods, called with the page's session cookie: `methods.chat.markRead({ chat, uid })`. */
export const methods = createMethodClient();

/** Signing in and out, and who is signed in (/api/session). */
export const sessionApi = createRouteClient(sessionRoutes);

export { AviaryApiError };
export type Message = MessageModel;
export type User = UserModel;
export type App = ClientApp;
/** Someone of the roster: a teammate, or the bot of an app (`isBot`). */
export type Person = Contact;
/** The team the session is for. */
export type Team = RouteResultOf<typeof sessionRoutes.signIn>['team'];
export type Channel = ChannelModel;
/** A channel's members (channels.listMembers), and what the person may do to them (channels.getInfo's abilities). */
export interface ChannelMembers {
  members: Awaited<ReturnType<typeof methods.channels.listMembers>>;
  abilities: NonNullable<Awaited<ReturnType<typeof methods.channels.getInfo>>['abilities']>;
}
export type { Attachment, Conversation, InteractionAnswer };

/** A team offered when a password opens accounts in several teams (TeamRequired). */
export interface TeamChoice {
  id: string;
  name: string;
}

/** What to show for a failed call, in place: the server's own description, or the error's message. */
/** What a failure without any answer says (failureText). */
export const UNREACHABLE = 'Aviary could not be reached: check the connection, then try again.';

export function failureText(error: unknown): string {
  if (error instanceof AviaryApiError && typeof error.body.description === 'string') return error.body.description;
  // fetch's own failure (no answer at all): Chromium says "Failed to fetch", Firefox and Safari otherwise.
  if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message)) return UNREACHABLE;
  return error instanceof Error ? error.message : String(error);
}
