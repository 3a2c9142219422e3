import type { ClientWidgetActionEvent, InteractionAnswer, ServiceClient } from '@aviary/protocol';
import { validateAction, type Action } from '@aviary/serviceml';
import { invalidParameter, missingParameter } from '../../errors.js';
import type { CoreContext } from '../context.js';
import type { UsersTable } from '../../store/schema.js';
import { findUsableApp } from './appAccess.js';
import { carryInteraction } from './carryInteraction.js';
import { commonAttributes, interactionChatOf, type InteractionChat } from './interactionChat.js';
import { appBehind, findAttachment, findVisibleMessage } from './visibleMessage.js';

export interface WidgetActionInput {
  appId: string;
  /** What the widget called: `Aviary.openWidget(url, desktopType, mobileType)` or `Aviary.openBrowser(url, sendContext)`. */
  kind: 'openWidget' | 'openBrowser';
  url: string;
  desktopType?: string;
  mobileType?: string;
  sendContext?: boolean;
  /** The chat the calling widget was opened in; implied by `messageUid` when it was opened from a message. */
  chat?: string;
  messageUid?: string;
  attachmentId?: string;
  client: ServiceClient;
}

/**
 * `client.widgetAction`: a widget asked the client (through /widget.js) to open another widget or a
 * browser tab. The event goes in the URL that is opened (docs/reference/events.md), signed for the widget's app.
 */
export async function runWidgetAction(ctx: CoreContext, person: UsersTable, input: WidgetActionInput): Promise<InteractionAnswer> {
  const action = readWidgetAction(input);
  const { app } = await findUsableApp(ctx.db, person, input.appId);
  const interactionChat = await chatOfCallingWidget(ctx, person, input);
  const event: ClientWidgetActionEvent = {
    name: 'client.widgetAction',
    ...commonAttributes(interactionChat),
    ...(input.messageUid !== undefined ? { messageUid: input.messageUid } : {}),
    ...(input.attachmentId !== undefined ? { attachmentId: input.attachmentId } : {}),
  };
  return carryInteraction(ctx, { appId: app.id, action, event, client: input.client });
}

/** The same rules as an integration's action, with the errors named after this request's fields. */
function readWidgetAction(input: WidgetActionInput): Action {
  const { kind, url, desktopType, mobileType, sendContext } = input;
  const result = validateAction({ type: kind, url, desktopType, mobileType, sendContext }, 'action');
  if (result.ok) return result.value;
  const field = result.parameter.replace(/^action\./, '');
  throw invalidParameter(field === 'type' ? 'kind' : field, result.description.replaceAll('action.type', 'kind').replaceAll('action.', ''));
}

/** A widget opened from an attachment belongs to the attachment's app, in the message's chat. */
async function chatOfCallingWidget(ctx: CoreContext, person: UsersTable, input: WidgetActionInput): Promise<InteractionChat> {
  if (input.messageUid === undefined) {
    if (input.attachmentId !== undefined) throw missingParameter('messageUid');
    if (input.chat === undefined) throw missingParameter('chat');
    return interactionChatOf(ctx.db, person, input.chat);
  }
  const { row, interactionChat } = await findVisibleMessage(ctx.db, person, input.messageUid);
  const owner = appBehind(row, input.attachmentId === undefined ? undefined : findAttachment(row, input.attachmentId));
  if (owner !== input.appId) throw invalidParameter('appId', `The widget of this message belongs to ${owner}, not ${input.appId}.`);
  return interactionChat;
}
