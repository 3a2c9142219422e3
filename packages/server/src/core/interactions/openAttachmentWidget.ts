import type { ClientOpenAttachmentWidgetEvent, InteractionAnswer, ServiceClient } from '@aviary/protocol';
import { invalidParameter } from '../../errors.js';
import type { CoreContext } from '../context.js';
import { openWidgetUrl } from '../widgetUrl.js';
import type { UsersTable } from '../../store/schema.js';
import { findUsableApp, requireWidgetAccess } from './appAccess.js';
import { commonAttributes } from './interactionChat.js';
import { appBehind, findAttachment, findVisibleMessage } from './visibleMessage.js';

/**
 * `client.openAttachmentWidget`: the client is about to show an attachment's widget view inline, and asks
 * for its URL, which carries the event (docs/reference/events.md: widget only, `serviceWidgetType=attachment`).
 */
export async function openAttachmentWidget(
  ctx: CoreContext,
  person: UsersTable,
  input: { messageUid: string; attachmentId: string; client: ServiceClient },
): Promise<InteractionAnswer> {
  const { row, interactionChat } = await findVisibleMessage(ctx.db, person, input.messageUid);
  const attachment = findAttachment(row, input.attachmentId);
  const widget = attachment.views?.widget;
  if (!widget) throw invalidParameter('attachmentId', `Attachment ${JSON.stringify(input.attachmentId)} has no widget view.`);
  const { app } = await findUsableApp(ctx.db, person, appBehind(row, attachment), 'attachmentId');
  await requireWidgetAccess(ctx.db, person.id, app.id);
  const event: ClientOpenAttachmentWidgetEvent = {
    name: 'client.openAttachmentWidget',
    ...commonAttributes(interactionChat),
    messageUid: row.uid,
    attachmentId: input.attachmentId,
  };
  const url = await openWidgetUrl(ctx, { appId: app.id, url: widget.src, route: 'widget', event, client: input.client, widgetType: 'attachment' });
  return { kind: 'attachmentWidget', url, ...(widget.width !== undefined ? { width: widget.width } : {}), ...(widget.height !== undefined ? { height: widget.height } : {}) };
}
