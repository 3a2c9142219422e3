import { api } from '@aviary/protocol';
import { pressAttachmentButton, pressIntegrationButton } from '../../../core/interactions/pressButton.js';
import { defineHandler } from '../../handler.js';
import { required } from '../../requiredParams.js';

/** An attachment's button is named by its message; the app's own buttons by the app and the chat. */
export default defineHandler(api.interactions.pressButton, async (params, { user: person }, ctx) => {
  const { button, client = 'desktop' } = params;
  if (params.messageUid !== undefined || button === 'attachmentButton') {
    const { messageUid, attachmentId, buttonId } = required(params, 'messageUid', 'attachmentId', 'buttonId');
    return pressAttachmentButton(ctx, person, { messageUid, attachmentId, buttonId, client });
  }
  const { appId, chat, ...pressed } = required({ ...params, button }, 'appId', 'button', 'chat');
  return pressIntegrationButton(ctx, person, { appId, button: pressed.button, chat, client });
});
