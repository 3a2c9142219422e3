/**
 * What a person does with an app's buttons, message action, ServiceML actions and widgets: the methods
 * that send the client.* events, called with a person's session only. Each answers what the client does
 * next (InteractionAnswer): nothing, a toast, or a URL to open.
 */
import { Type } from '@sinclair/typebox';
import { desktopTypes } from '../attachment.js';
import { defineMethod } from '../define.js';
import type { ErrorCode } from '../errors.js';
import { buttonKinds, maxMessageActionSelection } from '../events.js';
import { ChatId, MessageUid } from '../ids.js';
import { InteractionAnswer } from '../interactions.js';
import { oneOf } from '../params.js';
import { AppChosenId, AppIdParam, ServiceClientParam } from './fields.js';

/** What every action can answer besides its own refusals: the app refuses, is unreachable, or leads elsewhere. */
const interactionErrors: ErrorCode[] = ['AppDisabled', 'AppUnreachable', 'OriginNotAllowed', 'NotInstalled'];

const action = { callers: ['session'], rateClass: 'message', result: InteractionAnswer } as const;

export const pressButton = defineMethod({
  ...action,
  name: 'interactions.pressButton',
  summary:
    'Press an app’s own button ({appId, button, chat}: the app installed and having that button) or a button of an ' +
    'attachment ({messageUid, attachmentId, buttonId}: anyone who sees the message). Sends client.pressButton.',
  params: Type.Object({
    appId: Type.Optional(AppIdParam),
    button: Type.Optional(oneOf(buttonKinds, 'appLauncherButton, chatTabButton, attachmentPickerButton or appHome (attachmentButton with messageUid)')),
    chat: Type.Optional(ChatId),
    messageUid: Type.Optional(MessageUid),
    attachmentId: Type.Optional(AppChosenId('attachment')),
    buttonId: Type.Optional(AppChosenId('button')),
    client: ServiceClientParam,
  }),
  errors: ['UnknownChat', ...interactionErrors],
});

export const runMessageAction = defineMethod({
  ...action,
  name: 'interactions.runMessageAction',
  summary: 'Run the installed app’s message action on messages of a chat, each of which the person can see. Sends client.messageAction.',
  params: Type.Object({
    appId: AppIdParam,
    chat: ChatId,
    messageUids: Type.Array(MessageUid, { minItems: 1, maxItems: maxMessageActionSelection, description: `1 to ${maxMessageActionSelection} message uids` }),
    client: ServiceClientParam,
  }),
  errors: ['UnknownChat', ...interactionErrors],
});

export const runServicemlAction = defineMethod({
  ...action,
  name: 'interactions.runServicemlAction',
  summary: 'A click on an <action> of a message’s ServiceML, or with attachmentId of that attachment’s views.serviceml. Sends client.servicemlAction.',
  params: Type.Object({
    messageUid: MessageUid,
    actionId: AppChosenId('action'),
    attachmentId: Type.Optional(AppChosenId('attachment')),
    client: ServiceClientParam,
  }),
  errors: interactionErrors,
});

export const openAttachmentWidget = defineMethod({
  ...action,
  name: 'interactions.openAttachmentWidget',
  summary: 'The URL of an attachment’s widget view, carrying client.openAttachmentWidget.',
  params: Type.Object({ messageUid: MessageUid, attachmentId: AppChosenId('attachment'), client: ServiceClientParam }),
  errors: interactionErrors,
});

export const runWidgetAction = defineMethod({
  ...action,
  name: 'interactions.runWidgetAction',
  summary:
    'A widget called Aviary.openWidget or Aviary.openBrowser: the URL to open, carrying client.widgetAction. The widget ' +
    'is named by the chat it was opened in, or by its message (and attachment).',
  params: Type.Object({
    appId: AppIdParam,
    kind: oneOf(['openWidget', 'openBrowser'] as const, 'openWidget or openBrowser: what the widget called'),
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'the http or https URL the widget asked to open' }),
    desktopType: Type.Optional(Type.String({ maxLength: 20, description: `openWidget: ${desktopTypes.join(' or ')}` })),
    mobileType: Type.Optional(Type.String({ maxLength: 20, description: 'openWidget: modal' })),
    sendContext: Type.Optional(Type.Boolean({ description: 'openBrowser: append the event parameters to the URL' })),
    chat: Type.Optional(ChatId),
    messageUid: Type.Optional(MessageUid),
    attachmentId: Type.Optional(AppChosenId('attachment')),
    client: ServiceClientParam,
  }),
  errors: ['UnknownChat', ...interactionErrors],
});
