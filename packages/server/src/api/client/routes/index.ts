import createChannel from './createChannel.js';
import listChannelMembers from './listChannelMembers.js';
import fetchMessages from './fetchMessages.js';
import listRoster from './listRoster.js';
import sendMessage from './sendMessage.js';

/** The client API's handlers, under their routes' names (the table is checked in api/routeHandlers.ts). */
export const clientHandlers = {
  'client.listRoster': listRoster,
  'client.fetchMessages': fetchMessages,
  'client.sendMessage': sendMessage,
  'client.createChannel': createChannel,
  'client.listChannelMembers': listChannelMembers,
} as const;
