import type { MethodDefinition, MethodName } from '@aviary/protocol';
import type { MethodHandler } from '../handler.js';
import appsCreate from './apps/create.js';
import appsDelete from './apps/delete.js';
import appsDisable from './apps/disable.js';
import appsDisableForTeam from './apps/disableForTeam.js';
import appsEnable from './apps/enable.js';
import appsEnableBot from './apps/enableBot.js';
import appsEnableForTeam from './apps/enableForTeam.js';
import appsGetInfo from './apps/getInfo.js';
import appsInstall from './apps/install.js';
import appsListDeveloped from './apps/listDeveloped.js';
import appsListDirectory from './apps/listDirectory.js';
import appsRegenerateBotToken from './apps/regenerateBotToken.js';
import appsListWebhooks from './apps/listWebhooks.js';
import appsRevokeWebhook from './apps/revokeWebhook.js';
import appsRotateSecret from './apps/rotateSecret.js';
import appsSetIntegrations from './apps/setIntegrations.js';
import appsUninstall from './apps/uninstall.js';
import appsUpdate from './apps/update.js';
import channelsAddMembers from './channels/addMembers.js';
import channelsCreate from './channels/create.js';
import channelsGetInfo from './channels/getInfo.js';
import channelsJoin from './channels/join.js';
import channelsSetPurpose from './channels/setPurpose.js';
import channelsList from './channels/list.js';
import channelsListMembers from './channels/listMembers.js';
import channelsListPublic from './channels/listPublic.js';
import channelsRemoveMembers from './channels/removeMembers.js';
import chatDeleteMessage from './chat/deleteMessage.js';
import chatFetchMessages from './chat/fetchMessages.js';
import chatListConversations from './chat/listConversations.js';
import chatListMessageEdits from './chat/listMessageEdits.js';
import chatMarkRead from './chat/markRead.js';
import chatMarkUnread from './chat/markUnread.js';
import chatSendFromComposer from './chat/sendFromComposer.js';
import chatSendMessage from './chat/sendMessage.js';
import chatSignalTyping from './chat/signalTyping.js';
import chatUpdateMessage from './chat/updateMessage.js';
import deliveriesList from './deliveries/list.js';
import deliveriesListAttempts from './deliveries/listAttempts.js';
import deliveriesPause from './deliveries/pause.js';
import deliveriesReplay from './deliveries/replay.js';
import deliveriesReplayFailed from './deliveries/replayFailed.js';
import deliveriesResume from './deliveries/resume.js';
import deliveriesSendTestEvent from './deliveries/sendTestEvent.js';
import chatScheduleMessage from './chat/scheduleMessage.js';
import chatListScheduledMessages from './chat/listScheduledMessages.js';
import chatDeleteScheduledMessage from './chat/deleteScheduledMessage.js';
import webhooksCreate from './webhooks/create.js';
import webhooksList from './webhooks/list.js';
import webhooksRevoke from './webhooks/revoke.js';
import interactionsOpenAttachmentWidget from './interactions/openAttachmentWidget.js';
import interactionsPressButton from './interactions/pressButton.js';
import interactionsRunMessageAction from './interactions/runMessageAction.js';
import interactionsRunServicemlAction from './interactions/runServicemlAction.js';
import interactionsRunWidgetAction from './interactions/runWidgetAction.js';
import auditList from './audit/list.js';
import invitationsAccept from './invitations/accept.js';
import invitationsCreate from './invitations/create.js';
import invitationsGetInfo from './invitations/getInfo.js';
import invitationsList from './invitations/list.js';
import invitationsRevoke from './invitations/revoke.js';
import { pinHandlers } from './pins/index.js';
import { adminHandlers } from './admin/index.js';
import { threadHandlers } from './threads/index.js';
import { fileHandlers } from './files/index.js';
import { notificationHandlers } from './notifications/index.js';
import reactionsAdd from './reactions/add.js';
import reactionsList from './reactions/list.js';
import reactionsRemove from './reactions/remove.js';
import rosterListContacts from './roster/listContacts.js';
import searchFiles from './search/files.js';
import searchMessages from './search/messages.js';
import personalTokensCreate from './personalTokens/create.js';
import personalTokensList from './personalTokens/list.js';
import personalTokensRevoke from './personalTokens/revoke.js';
import sessionsList from './sessions/list.js';
import sessionsRevoke from './sessions/revoke.js';
import streamCreateTicket from './stream/createTicket.js';
import teamGetInfo from './team/getInfo.js';
import teamRemoveIcon from './team/removeIcon.js';
import teamSetIcon from './team/setIcon.js';
import teamUpdateSettings from './team/updateSettings.js';
import usersDeactivateAccount from './users/deactivateAccount.js';
import teamGetSignInSettings from './team/getSignInSettings.js';
import teamUpdateSignInSettings from './team/updateSignInSettings.js';
import usersChangePassword from './users/changePassword.js';
import usersGetInfo from './users/getInfo.js';
import usersRemoveProfileImage from './users/removeProfileImage.js';
import usersSetProfileImage from './users/setProfileImage.js';
import usersGetPublicProfile from './users/getPublicProfile.js';
import usersRequestPasswordReset from './users/requestPasswordReset.js';
import usersResetPassword from './users/resetPassword.js';
import usersUpdateProfile from './users/updateProfile.js';
import usersVerifyEmail from './users/verifyEmail.js';

/**
 * One handler for each protocol method, under the method's name. A method of @aviary/protocol without a
 * handler here, or a handler filed under another method's name, is a type error
 * (test/api/handlerTable.test.ts shows both and checks the table at run time too).
 */
export type HandlerTable = { readonly [N in MethodName]: MethodHandler<MethodDefinition & { name: N }> };

export const handlersByMethod = {
  ...adminHandlers,
  'apps.create': appsCreate,
  'apps.delete': appsDelete,
  'apps.disable': appsDisable,
  'apps.disableForTeam': appsDisableForTeam,
  'apps.enable': appsEnable,
  'apps.enableBot': appsEnableBot,
  'apps.enableForTeam': appsEnableForTeam,
  'apps.getInfo': appsGetInfo,
  'apps.install': appsInstall,
  'apps.listDeveloped': appsListDeveloped,
  'apps.listDirectory': appsListDirectory,
  'apps.regenerateBotToken': appsRegenerateBotToken,
  'apps.listWebhooks': appsListWebhooks,
  'apps.revokeWebhook': appsRevokeWebhook,
  'apps.rotateSecret': appsRotateSecret,
  'apps.setIntegrations': appsSetIntegrations,
  'apps.uninstall': appsUninstall,
  'apps.update': appsUpdate,
  'channels.addMembers': channelsAddMembers,
  'channels.create': channelsCreate,
  'channels.getInfo': channelsGetInfo,
  'channels.join': channelsJoin,
  'channels.setPurpose': channelsSetPurpose,
  'channels.list': channelsList,
  'channels.listMembers': channelsListMembers,
  'channels.listPublic': channelsListPublic,
  'channels.removeMembers': channelsRemoveMembers,
  'chat.deleteMessage': chatDeleteMessage,
  'chat.fetchMessages': chatFetchMessages,
  'chat.listConversations': chatListConversations,
  'chat.listMessageEdits': chatListMessageEdits,
  'chat.markRead': chatMarkRead,
  'chat.markUnread': chatMarkUnread,
  'chat.sendFromComposer': chatSendFromComposer,
  'chat.sendMessage': chatSendMessage,
  'chat.signalTyping': chatSignalTyping,
  'chat.updateMessage': chatUpdateMessage,
  'deliveries.list': deliveriesList,
  'deliveries.listAttempts': deliveriesListAttempts,
  'deliveries.pause': deliveriesPause,
  'deliveries.replay': deliveriesReplay,
  'deliveries.replayFailed': deliveriesReplayFailed,
  'deliveries.resume': deliveriesResume,
  'deliveries.sendTestEvent': deliveriesSendTestEvent,
  'chat.scheduleMessage': chatScheduleMessage,
  'chat.listScheduledMessages': chatListScheduledMessages,
  'chat.deleteScheduledMessage': chatDeleteScheduledMessage,
  'audit.list': auditList,
  'interactions.openAttachmentWidget': interactionsOpenAttachmentWidget,
  'interactions.pressButton': interactionsPressButton,
  'interactions.runMessageAction': interactionsRunMessageAction,
  'interactions.runServicemlAction': interactionsRunServicemlAction,
  'interactions.runWidgetAction': interactionsRunWidgetAction,
  'invitations.accept': invitationsAccept,
  'invitations.create': invitationsCreate,
  'invitations.getInfo': invitationsGetInfo,
  'invitations.list': invitationsList,
  'invitations.revoke': invitationsRevoke,
  ...pinHandlers,
  ...threadHandlers,
  ...fileHandlers,
  ...notificationHandlers,
  'reactions.add': reactionsAdd,
  'reactions.list': reactionsList,
  'reactions.remove': reactionsRemove,
  'roster.listContacts': rosterListContacts,
  'search.messages': searchMessages,
  'personalTokens.create': personalTokensCreate,
  'personalTokens.list': personalTokensList,
  'personalTokens.revoke': personalTokensRevoke,
  'search.files': searchFiles,
  'sessions.list': sessionsList,
  'sessions.revoke': sessionsRevoke,
  'stream.createTicket': streamCreateTicket,
  'team.getInfo': teamGetInfo,
  'team.removeIcon': teamRemoveIcon,
  'team.setIcon': teamSetIcon,
  'team.updateSettings': teamUpdateSettings,
  'team.getSignInSettings': teamGetSignInSettings,
  'team.updateSignInSettings': teamUpdateSignInSettings,
  'users.changePassword': usersChangePassword,
  'users.deactivateAccount': usersDeactivateAccount,
  'users.getInfo': usersGetInfo,
  'users.removeProfileImage': usersRemoveProfileImage,
  'users.setProfileImage': usersSetProfileImage,
  'users.getPublicProfile': usersGetPublicProfile,
  'users.requestPasswordReset': usersRequestPasswordReset,
  'users.resetPassword': usersResetPassword,
  'users.updateProfile': usersUpdateProfile,
  'webhooks.create': webhooksCreate,
  'webhooks.list': webhooksList,
  'webhooks.revoke': webhooksRevoke,
  'users.verifyEmail': usersVerifyEmail,
} as const satisfies HandlerTable;

/** The same handlers as a list, for lookups by the name a request carries. */
export const handlers: readonly MethodHandler[] = Object.values(handlersByMethod);
