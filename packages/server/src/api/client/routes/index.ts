import createChannel from './createChannel.js';
import browseChannels from './browseChannels.js';
import joinChannel from './joinChannel.js';
import listChannelMembers from './listChannelMembers.js';
import addChannelMembers from './addChannelMembers.js';
import removeChannelMembers from './removeChannelMembers.js';
import disableApp from './disableApp.js';
import enableApp from './enableApp.js';
import fetchMessages from './fetchMessages.js';
import installApp from './installApp.js';
import listApps from './listApps.js';
import listConversations from './listConversations.js';
import listRoster from './listRoster.js';
import messageAction from './messageAction.js';
import openAttachmentWidget from './openAttachmentWidget.js';
import pressButton from './pressButton.js';
import sendMessage from './sendMessage.js';
import servicemlAction from './servicemlAction.js';
import teamDisableApp from './teamDisableApp.js';
import teamEnableApp from './teamEnableApp.js';
import uninstallApp from './uninstallApp.js';
import widgetAction from './widgetAction.js';

/** The client API's handlers, under their routes' names (the table is checked in api/routeHandlers.ts). */
export const clientHandlers = {
  'client.listConversations': listConversations,
  'client.listRoster': listRoster,
  'client.fetchMessages': fetchMessages,
  'client.sendMessage': sendMessage,
  'client.pressButton': pressButton,
  'client.messageAction': messageAction,
  'client.servicemlAction': servicemlAction,
  'client.openAttachmentWidget': openAttachmentWidget,
  'client.widgetAction': widgetAction,
  'client.listApps': listApps,
  'client.installApp': installApp,
  'client.uninstallApp': uninstallApp,
  'client.disableApp': disableApp,
  'client.enableApp': enableApp,
  'client.teamDisableApp': teamDisableApp,
  'client.teamEnableApp': teamEnableApp,
  'client.createChannel': createChannel,
  'client.browseChannels': browseChannels,
  'client.joinChannel': joinChannel,
  'client.listChannelMembers': listChannelMembers,
  'client.addChannelMembers': addChannelMembers,
  'client.removeChannelMembers': removeChannelMembers,
} as const;
