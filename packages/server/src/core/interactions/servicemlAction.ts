import type { ClientServicemlActionEvent, InteractionAnswer, ServiceClient } from '@aviary/protocol';
import { parseServiceML, type Action, type ServiceMLNode } from '@aviary/serviceml';
import { invalidParameter } from '../../errors.js';
import type { CoreContext } from '../context.js';
import type { UsersTable } from '../../store/schema.js';
import { findUsableApp } from './appAccess.js';
import { carryInteraction } from './carryInteraction.js';
import { commonAttributes } from './interactionChat.js';
import { appBehind, findAttachment, findVisibleMessage } from './visibleMessage.js';

/**
 * `client.servicemlAction`: a click on an `<action>` of the message's ServiceML, or (with `attachmentId`)
 * of its attachment's `views.serviceml`. The element's own type decides where the event goes.
 */
export async function runServicemlAction(
  ctx: CoreContext,
  person: UsersTable,
  input: { messageUid: string; actionId: string; attachmentId?: string; client: ServiceClient },
): Promise<InteractionAnswer> {
  const { row, interactionChat } = await findVisibleMessage(ctx.db, person, input.messageUid);
  const attachment = input.attachmentId === undefined ? undefined : findAttachment(row, input.attachmentId);
  const source = attachment ? attachment.views?.serviceml : (row.serviceml ?? undefined);
  const where = attachment ? `attachment ${JSON.stringify(input.attachmentId)}` : `message ${row.uid}`;
  const action = source === undefined ? undefined : findAction(source, input.actionId);
  if (!action) throw invalidParameter('actionId', `The ServiceML of ${where} has no <action> with the id ${JSON.stringify(input.actionId)}.`);
  const { app } = await findUsableApp(ctx.db, person, appBehind(row, attachment), attachment ? 'attachmentId' : 'messageUid');
  const event: ClientServicemlActionEvent = {
    name: 'client.servicemlAction',
    ...commonAttributes(interactionChat),
    messageUid: row.uid,
    ...(input.attachmentId !== undefined ? { attachmentId: input.attachmentId } : {}),
    actionId: input.actionId,
  };
  return carryInteraction(ctx, { appId: app.id, action, event, client: input.client });
}

/** The first `<action>` with this id, depth first. Stored ServiceML was validated when it was sent. */
function findAction(source: string, actionId: string): Action | undefined {
  const parsed = parseServiceML(source);
  return parsed.ok ? searchNodes(parsed.ast.children, actionId) : undefined;
}

function searchNodes(nodes: ServiceMLNode[], actionId: string): Action | undefined {
  for (const node of nodes) {
    if (node.type === 'text') continue;
    if (node.name === 'action' && node.attributes.id === actionId) {
      const { id: _id, ...action } = node.attributes;
      return action;
    }
    const found = searchNodes(node.children, actionId);
    if (found) return found;
  }
  return undefined;
}
