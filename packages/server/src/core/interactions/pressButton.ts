import type { Action, ButtonKind, ClientPressButtonEvent, InteractionAnswer, ServiceClient } from '@aviary/protocol';
import { invalidParameter } from '../../errors.js';
import type { CoreContext } from '../context.js';
import type { UsersTable } from '../../store/schema.js';
import { readIntegrations } from '../integrations.js';
import { findInstalledApp, findUsableApp } from './appAccess.js';
import { carryInteraction } from './carryInteraction.js';
import { commonAttributes, interactionChatOf } from './interactionChat.js';
import { appBehind, findAttachment, findVisibleMessage } from './visibleMessage.js';

/** The buttons an installed app adds to the client, by the `button` value of their event. */
const integrationOfButton = {
  appLauncherButton: 'launcherButton',
  chatTabButton: 'chatTabButton',
  attachmentPickerButton: 'attachmentPickerButton',
  appHome: 'appHome',
} as const satisfies Record<Exclude<ButtonKind, 'attachmentButton'>, string>;

export type IntegrationButton = keyof typeof integrationOfButton;

export const integrationButtons = Object.keys(integrationOfButton) as IntegrationButton[];

/** `client.pressButton` for an app's launcher, chat-tab or attachment-picker button, pressed in `chat`. */
export async function pressIntegrationButton(
  ctx: CoreContext,
  person: UsersTable,
  input: { appId: string; button: IntegrationButton; chat: string; client: ServiceClient },
): Promise<InteractionAnswer> {
  const app = await findInstalledApp(ctx.db, person, input.appId);
  const action = integrationAction(readIntegrations(app), input.button);
  if (!action) throw invalidParameter('button', `${app.name} has no ${input.button}.`);
  const interactionChat = await interactionChatOf(ctx.db, person, input.chat);
  const event: ClientPressButtonEvent = { name: 'client.pressButton', ...commonAttributes(interactionChat), button: input.button };
  return carryInteraction(ctx, { appId: app.id, action, event, client: input.client });
}

/** What pressing the button does: its action; the home tab always opens its widget, in the sidebar on a desktop. */
function integrationAction(integrations: ReturnType<typeof readIntegrations>, button: IntegrationButton): Action | undefined {
  if (button === 'appHome') return integrations.appHome && { type: 'openWidget', url: integrations.appHome.url, desktopType: 'sidebar', mobileType: 'modal' };
  return integrations[integrationOfButton[button]]?.action;
}

/** `client.pressButton` for a button of a message's attachment; the chat is the message's. */
export async function pressAttachmentButton(
  ctx: CoreContext,
  person: UsersTable,
  input: { messageUid: string; attachmentId: string; buttonId: string; client: ServiceClient },
): Promise<InteractionAnswer> {
  const { row, interactionChat } = await findVisibleMessage(ctx.db, person, input.messageUid);
  const attachment = findAttachment(row, input.attachmentId);
  const button = attachment.buttons?.find((candidate) => candidate.id === input.buttonId);
  if (!button) throw invalidParameter('buttonId', `Attachment ${JSON.stringify(input.attachmentId)} has no button with the id ${JSON.stringify(input.buttonId)}.`);
  const { app } = await findUsableApp(ctx.db, person, appBehind(row, attachment), 'attachmentId');
  const event: ClientPressButtonEvent = {
    name: 'client.pressButton',
    ...commonAttributes(interactionChat),
    button: 'attachmentButton',
    messageUid: row.uid,
    attachmentId: input.attachmentId,
    buttonId: button.id,
  };
  return carryInteraction(ctx, { appId: app.id, action: button.action, event, client: input.client });
}
