import type { MethodDefinition } from '../define.js';
import * as accounts from './accounts.js';
import * as admin from './admin.js';
import * as accountMail from './accountMail.js';
import * as apps from './apps.js';
import * as audit from './audit.js';
import * as channels from './channels.js';
import * as chat from './chat.js';
import * as deliveries from './deliveries.js';
import * as appWebhooks from './appWebhooks.js';
import * as developedApps from './developedApps.js';
import * as files from './files.js';
import * as interactions from './interactions.js';
import * as invitations from './invitations.js';
import * as notifications from './notifications.js';
import * as people from './people.js';
import * as personalTokens from './personalTokens.js';
import * as pictures from './pictures.js';
import * as pins from './pins.js';
import * as reactions from './reactions.js';
import * as stream from './stream.js';
import * as team from './team.js';
import * as threads from './threads.js';
import * as signInSettings from './signInSettings.js';
import * as search from './search.js';
import * as scheduled from './scheduled.js';
import * as webhooks from './webhooks.js';

/** Every method of the API, by namespace as the typed clients expose them; each says who may call it. */
export const api = {
  admin: {
    listPeople: admin.listPeople,
    setRole: admin.setRole,
    deactivatePerson: admin.deactivatePerson,
    reactivatePerson: admin.reactivatePerson,
    resetPassword: admin.resetPassword,
    listChannels: admin.listChannels,
    listApps: admin.listApps,
  },
  apps: {
    listDirectory: apps.listDirectory,
    install: apps.install,
    uninstall: apps.uninstall,
    disable: apps.disable,
    enable: apps.enable,
    disableForTeam: apps.disableForTeam,
    enableForTeam: apps.enableForTeam,
    create: developedApps.create,
    listDeveloped: developedApps.listDeveloped,
    getInfo: developedApps.getInfo,
    update: developedApps.update,
    delete: developedApps.remove,
    setIntegrations: developedApps.setIntegrations,
    rotateSecret: developedApps.rotateSecret,
    enableBot: developedApps.enableBot,
    regenerateBotToken: developedApps.regenerateBotToken,
    listWebhooks: appWebhooks.listWebhooks,
    revokeWebhook: appWebhooks.revokeWebhook,
  },
  channels: {
    addMembers: channels.addMembers,
    archive: admin.archiveChannel,
    unarchive: admin.unarchiveChannel,
    rename: admin.renameChannel,
    convertToPrivate: admin.convertToPrivate,
    create: channels.create,
    getInfo: channels.getInfo,
    join: channels.join,
    list: channels.list,
    listMembers: channels.listMembers,
    listPublic: channels.listPublic,
    removeMembers: channels.removeMembers,
    setPurpose: channels.setPurpose,
  },
  chat: {
    sendMessage: chat.sendMessage,
    sendFromComposer: chat.sendFromComposer,
    fetchMessages: chat.fetchMessages,
    listConversations: chat.listConversations,
    updateMessage: chat.updateMessage,
    deleteMessage: chat.deleteMessage,
    listMessageEdits: chat.listMessageEdits,
    markRead: chat.markRead,
    markUnread: chat.markUnread,
    signalTyping: chat.signalTyping,
    listMentions: notifications.listMentions,
    scheduleMessage: scheduled.scheduleMessage,
    listScheduledMessages: scheduled.listScheduledMessages,
    deleteScheduledMessage: scheduled.deleteScheduledMessage,
  },
  audit: { list: audit.list },
  files: {
    upload: files.upload,
    getInfo: files.getInfo,
    delete: files.remove,
    list: files.list,
    startUpload: files.startUpload,
    getUpload: files.getUpload,
    uploadPart: files.uploadPart,
    finishUpload: files.finishUpload,
  },
  deliveries: {
    list: deliveries.list,
    listAttempts: deliveries.listAttempts,
    replay: deliveries.replay,
    replayFailed: deliveries.replayFailed,
    pause: deliveries.pause,
    resume: deliveries.resume,
    sendTestEvent: deliveries.sendTestEvent,
  },
  interactions: {
    pressButton: interactions.pressButton,
    runMessageAction: interactions.runMessageAction,
    runServicemlAction: interactions.runServicemlAction,
    openAttachmentWidget: interactions.openAttachmentWidget,
    runWidgetAction: interactions.runWidgetAction,
  },
  reactions: { add: reactions.add, remove: reactions.remove, list: reactions.list },
  pins: { add: pins.add, remove: pins.remove, list: pins.list }, saved: { add: pins.saveAdd, remove: pins.saveRemove, list: pins.saveList },
  invitations: {
    create: invitations.createInvitation,
    list: invitations.listInvitations,
    revoke: invitations.revokeInvitation,
    getInfo: invitations.getInvitation,
    accept: invitations.acceptInvitation,
  },
  personalTokens: { create: personalTokens.create, list: personalTokens.list, revoke: personalTokens.revoke },
  roster: { listContacts: people.listContacts },
  search: { messages: search.messages, files: search.files },
  sessions: { list: accounts.listSessions, revoke: accounts.revokeSessions },
  stream: { createTicket: stream.createTicket },
  threads: { list: threads.list, follow: threads.follow, unfollow: threads.unfollow, markRead: threads.markRead },
  team: {
    getInfo: team.getInfo,
    updateSettings: team.updateSettings,
    getSignInSettings: signInSettings.getSignInSettings,
    updateSignInSettings: signInSettings.updateSignInSettings,
    updateMentionSettings: notifications.updateMentionSettings,
    setIcon: pictures.setIcon,
    removeIcon: pictures.removeIcon,
  },
  notifications: { getSettings: notifications.getSettings, setChatLevel: notifications.setChatLevel, setDoNotDisturb: notifications.setDoNotDisturb },
  push: { getPublicKey: notifications.getPushKey, subscribe: notifications.subscribe, unsubscribe: notifications.unsubscribe },
  webhooks: { create: webhooks.create, list: webhooks.list, revoke: webhooks.revoke },
  users: {
    getInfo: people.getInfo,
    getPublicProfile: people.getPublicProfile,
    updateProfile: people.updateProfile,
    setProfileImage: pictures.setProfileImage,
    removeProfileImage: pictures.removeProfileImage,
    changePassword: accounts.changePassword,
    deactivateAccount: accounts.deactivateAccount,
    requestPasswordReset: accountMail.requestPasswordReset,
    resetPassword: accountMail.resetPassword,
    verifyEmail: accountMail.verifyEmail,
  },
} as const;

type Api = typeof api;
export type MethodName = { [N in keyof Api]: { [M in keyof Api[N]]: Api[N][M] extends { name: infer X } ? X : never }[keyof Api[N]] }[keyof Api];

export const methodsByName: ReadonlyMap<string, MethodDefinition> = new Map<string, MethodDefinition>(
  Object.values(api).flatMap((namespace) => Object.values(namespace).map((method) => [method.name, method] as const)),
);
