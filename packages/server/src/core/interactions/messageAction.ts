import { maxMessageActionMessages, type ClientMessageActionEvent, type InteractionAnswer, type ServiceClient } from '@aviary/protocol';
import { invalidParameter } from '../../errors.js';
import type { CoreContext } from '../context.js';
import type { UsersTable } from '../../store/schema.js';
import { readIntegrations } from '../integrations.js';
import { presentMessage } from '../presenters/messages.js';
import { findMessagesByUids } from '../queries/messages.js';
import { findInstalledApp } from './appAccess.js';
import { carryInteraction } from './carryInteraction.js';
import { commonAttributes, interactionChatOf } from './interactionChat.js';

/** The API reads `messageUids` up to this many; the event allows no more. */
export { maxMessageActionSelection } from '@aviary/protocol';

/**
 * `client.messageAction`: an installed app's message action on messages selected in one chat, each of
 * which the person must be able to see. The messages themselves go along up to
 * `maxMessageActionMessages`; beyond that only their uids (docs/reference/events.md).
 */
export async function runMessageAction(
  ctx: CoreContext,
  person: UsersTable,
  input: { appId: string; chat: string; messageUids: string[]; client: ServiceClient },
): Promise<InteractionAnswer> {
  const app = await findInstalledApp(ctx.db, person, input.appId);
  const messageAction = readIntegrations(app).messageAction;
  if (!messageAction) throw invalidParameter('appId', `${app.name} has no message action.`);
  const interactionChat = await interactionChatOf(ctx.db, person, input.chat);
  const uids = [...new Set(input.messageUids)];
  const rows = await findMessagesByUids(ctx.db, interactionChat.chatKey, person.id, uids);
  if (rows.length < uids.length) {
    const found = new Set(rows.map((row) => row.uid));
    const missing = uids.find((uid) => !found.has(uid));
    throw invalidParameter('messageUids', `messageUids names ${missing}, which is not a message of ${input.chat} that you can see.`);
  }
  const event: ClientMessageActionEvent = {
    name: 'client.messageAction',
    ...commonAttributes(interactionChat),
    messageUids: uids,
    ...(rows.length <= maxMessageActionMessages ? { messages: rows.map(presentMessage) } : {}),
  };
  return carryInteraction(ctx, { appId: app.id, action: messageAction.action, event, client: input.client });
}
