import type { MethodDefinition, MethodName } from '@aviary/protocol';
import type { MethodHandler } from '../handler.js';
import channelsAddMembers from './channels/addMembers.js';
import channelsCreate from './channels/create.js';
import channelsGetInfo from './channels/getInfo.js';
import channelsList from './channels/list.js';
import channelsListMembers from './channels/listMembers.js';
import channelsRemoveMembers from './channels/removeMembers.js';
import chatFetchMessages from './chat/fetchMessages.js';
import chatSendMessage from './chat/sendMessage.js';
import chatUpdateMessage from './chat/updateMessage.js';
import rosterListContacts from './roster/listContacts.js';
import searchMessages from './search/messages.js';
import usersGetInfo from './users/getInfo.js';
import usersGetPublicProfile from './users/getPublicProfile.js';

/**
 * One handler for each protocol method, under the method's name. A method of @aviary/protocol without a
 * handler here, or a handler filed under another method's name, is a type error
 * (test/api/handlerTable.test.ts shows both and checks the table at run time too).
 */
export type HandlerTable = { readonly [N in MethodName]: MethodHandler<MethodDefinition & { name: N }> };

export const handlersByMethod = {
  'channels.addMembers': channelsAddMembers,
  'channels.create': channelsCreate,
  'channels.getInfo': channelsGetInfo,
  'channels.list': channelsList,
  'channels.listMembers': channelsListMembers,
  'channels.removeMembers': channelsRemoveMembers,
  'chat.fetchMessages': chatFetchMessages,
  'chat.sendMessage': chatSendMessage,
  'chat.updateMessage': chatUpdateMessage,
  'roster.listContacts': rosterListContacts,
  'search.messages': searchMessages,
  'users.getInfo': usersGetInfo,
  'users.getPublicProfile': usersGetPublicProfile,
} as const satisfies HandlerTable;

/** The same handlers as a list, for lookups by the name a request carries. */
export const handlers: readonly MethodHandler[] = Object.values(handlersByMethod);
