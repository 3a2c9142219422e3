/** What the client API answers with, besides the method API's models (models.ts). */
import { Type, type Static } from '@sinclair/typebox';
import { ChatId, MessageUid, UserId } from '../ids.js';
import { Channel, Message, PublicProfile } from '../models.js';
import { oneOf } from '../params.js';

/** A person as the client shows them in its lists, with `isBot` on bots. */
export const Contact = Type.Object({ ...PublicProfile.properties, isBot: Type.Optional(Type.Literal(true)) }, { additionalProperties: false });

/** One entry of a person's chat list. */
export const Conversation = Type.Object(
  {
    /** What `to` and `chat` take: the channel id, or the other person's id. */
    chat: ChatId,
    kind: oneOf(['channel', 'direct'] as const),
    name: Type.String(),
    channel: Type.Optional(Channel),
    user: Type.Optional(Contact),
    /** The newest message the person may see, if any. */
    lastMessage: Type.Optional(Message),
    /** How far the person has read (client.markChatRead), if they ever marked it. */
    readUpTo: Type.Optional(MessageUid),
    /** Messages from others after `readUpTo` (all of them without it) that the person may see, counted up to 1,000. */
    unread: Type.Integer({ minimum: 0 }),
    /** Of those, the ones whose `mentions` name the person. */
    mentions: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

const Label = Type.Object({ name: Type.String(), icon: Type.Optional(Type.String()) }, { additionalProperties: false });

/** What the client shows of an app's integrations: their labels, never where their actions lead. */
export const PublicIntegrations = Type.Object(
  {
    slashCommands: Type.Array(Type.Object({ name: Type.String(), description: Type.Optional(Type.String()) }, { additionalProperties: false })),
    launcherButton: Type.Optional(Label),
    chatTabButton: Type.Optional(Label),
    attachmentPickerButton: Type.Optional(Label),
    messageAction: Type.Optional(Type.Object({ name: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

/** An app of the person's team as the client lists it, with the person's own install of it. */
export const ClientApp = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    icon: Type.Optional(Type.String()),
    botUserId: Type.Optional(UserId),
    /** False while `app.install` could not reach the app (no listener URL, no open `aviary listen`): installing it would fail. */
    installable: Type.Boolean(),
    /** Why it is not installable, in words to show beside the greyed-out Install. */
    notInstallableBecause: Type.Optional(Type.String()),
    installed: Type.Boolean(),
    disabledByUser: Type.Boolean(),
    disabledByTeam: Type.Boolean(),
    integrations: PublicIntegrations,
  },
  { additionalProperties: false },
);

/** Who in a team may create apps: `members` (members and admins, the default), `admins`, or `everyone` (guests too). */
export const appCreatorChoices = ['members', 'admins', 'everyone'] as const;
export type AppCreators = (typeof appCreatorChoices)[number];

/** Who may invite people to the team: its admins, or its members and admins (never guests). */
export const inviterChoices = ['admins', 'members'] as const;
export type WhoMayInvite = (typeof inviterChoices)[number];

export const Team = Type.Object(
  { id: Type.String(), name: Type.String(), appCreators: oneOf(appCreatorChoices), whoMayInvite: oneOf(inviterChoices) },
  { additionalProperties: false },
);

export type Contact = Static<typeof Contact>;
export type Conversation = Static<typeof Conversation>;
export type PublicIntegrations = Static<typeof PublicIntegrations>;
export type ClientApp = Static<typeof ClientApp>;
export type Team = Static<typeof Team>;
