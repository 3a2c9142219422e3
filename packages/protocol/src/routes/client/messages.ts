import { Type } from '@sinclair/typebox';
import { api } from '../../methods/index.js';
import { InteractionAnswer } from '../../interactions.js';
import { Message } from '../../models.js';
import { Contact } from '../clientModels.js';
import { defineRoute } from '../define.js';
import { AppIdParam, closedObject, ServiceClientParam, sessionRead } from '../fields.js';

const history = api.chat.fetchMessages.params.properties;
const sending = api.chat.sendMessage.params.properties;

export const listRoster = defineRoute({
  ...sessionRead,
  name: 'client.listRoster',
  summary: 'The people the person may write to and mention: their teammates and every bot of the team (named to all, installed or not), bots marked isBot.',
  path: '/api/client/roster',
  result: closedObject({ people: Type.Array(Contact) }),
});

export const fetchMessages = defineRoute({
  name: 'client.fetchMessages',
  summary: 'A page of a chat’s history, newest first, with the visibility rules of chat.fetchMessages.',
  verb: 'GET',
  path: '/api/client/messages',
  callers: ['session'],
  params: Type.Object({ chat: history.chat, before: history.before, after: history.after, limit: history.limit }),
  result: Type.Object({ messages: Type.Array(Message) }),
  errors: ['UnknownChat'],
});

/** The slash command a composer's text called instead of sending a message. */
const SlashCommandCalled = closedObject({ slashCommand: closedObject({ appId: AppIdParam, command: Type.String() }), answer: InteractionAnswer });

export const sendMessage = defineRoute({
  name: 'client.sendMessage',
  summary:
    'Send a message as the person (the checks of chat.sendMessage; the parameters only an app has are ignored), ' +
    'unless its text calls an installed app’s slash command: then the app receives client.slashCommand.',
  verb: 'POST',
  path: '/api/client/messages',
  callers: ['session'],
  rateClass: 'message',
  params: Type.Object({
    to: sending.to,
    text: sending.text,
    serviceml: sending.serviceml,
    attachments: sending.attachments,
    id: sending.id,
    client: ServiceClientParam,
  }),
  result: Type.Union([closedObject({ message: Message }), SlashCommandCalled]),
  errors: ['UnknownRecipient', 'UnknownChat', 'AppDisabled', 'AppUnreachable', 'OriginNotAllowed', 'NotInstalled'],
});
