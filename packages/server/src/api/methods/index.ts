import type { MethodHandler } from '../handler.js';
import channelsAddMembers from './channels/addMembers.js';
import channelsCreate from './channels/create.js';
import channelsGetInfo from './channels/getInfo.js';
import channelsList from './channels/list.js';
import channelsListMembers from './channels/listMembers.js';
import channelsRemoveMembers from './channels/removeMembers.js';
import chatFetchMessages from './chat/fetchMessages.js';
import chatSendMessage from './chat/sendMessage.js';
import rosterListContacts from './roster/listContacts.js';
import usersGetInfo from './users/getInfo.js';
import usersGetPublicProfile from './users/getPublicProfile.js';

/** Every method's handler; a test checks that each method of @aviary/protocol has exactly one. */
export const handlers: MethodHandler[] = [
  usersGetInfo,
  channelsCreate,
  channelsAddMembers,
  channelsRemoveMembers,
  channelsGetInfo,
  channelsList,
  channelsListMembers,
  rosterListContacts,
  usersGetPublicProfile,
  chatSendMessage,
  chatFetchMessages,
] as MethodHandler[];
