/**
 * Every call the web client makes to the server: the typed method client of @aviary/protocol (the same
 * one the SDK's AviaryClient sends its calls with) for the /v1 methods, and the typed route clients for
 * the routes not yet moved to methods, all built from the definitions the server runs.
 * Components never call fetch themselves. Requests go to the page's own origin with the session cookie
 * (HttpOnly: the page never sees the token); a refusal throws AviaryApiError with the error's code,
 * parameter and description.
 */
import {
  AviaryApiError,
  clientRoutes,
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

/** The client API (/api/client), one call per route, named as the protocol names the routes. */
export const api = createRouteClient(clientRoutes);

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
/** A channel's members, and whether the person may add or remove others. */
export type ChannelMembers = RouteResultOf<typeof clientRoutes.listChannelMembers>;
export type { Attachment, Conversation, InteractionAnswer };

/** A team offered when a password opens accounts in several teams (TeamRequired). */
export interface TeamChoice {
  id: string;
  name: string;
}

/** What to show for a failed call, in place: the server's own description, or the error's message. */
export function failureText(error: unknown): string {
  if (error instanceof AviaryApiError && typeof error.body.description === 'string') return error.body.description;
  return error instanceof Error ? error.message : String(error);
}
