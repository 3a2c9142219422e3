import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { runMessageAction, maxMessageActionSelection } from '../../core/interactions/messageAction.js';
import { openAttachmentWidget } from '../../core/interactions/openAttachmentWidget.js';
import { integrationButtons, pressAttachmentButton, pressIntegrationButton } from '../../core/interactions/pressButton.js';
import { runServicemlAction } from '../../core/interactions/servicemlAction.js';
import { runWidgetAction } from '../../core/interactions/widgetAction.js';
import { signedInPerson } from '../session/auth.js';
import { bodyFields, optionalBoolean, optionalString, requiredChoice, requiredString, requiredStringList, serviceClient } from './body.js';

/**
 * POST /api/client/actions/<interaction>: what a person does with an app's buttons, commands, actions
 * and widgets. Each answers an InteractionAnswer: nothing, a toast, or a URL to open.
 */
export function registerActionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/actions/pressButton', async (request) => {
    const fields = bodyFields(request);
    const person = signedInPerson(request);
    const client = serviceClient(fields);
    // An attachment's button is named by its message; the app's own buttons by the app and the chat.
    if (fields.messageUid !== undefined || fields.button === 'attachmentButton') {
      return pressAttachmentButton(ctx, person, {
        messageUid: requiredString(fields, 'messageUid'),
        attachmentId: requiredString(fields, 'attachmentId'),
        buttonId: requiredString(fields, 'buttonId'),
        client,
      });
    }
    return pressIntegrationButton(ctx, person, {
      appId: requiredString(fields, 'appId'),
      button: requiredChoice(fields, 'button', integrationButtons),
      chat: requiredString(fields, 'chat'),
      client,
    });
  });

  app.post('/actions/messageAction', async (request) => {
    const fields = bodyFields(request);
    return runMessageAction(ctx, signedInPerson(request), {
      appId: requiredString(fields, 'appId'),
      chat: requiredString(fields, 'chat'),
      messageUids: requiredStringList(fields, 'messageUids', maxMessageActionSelection),
      client: serviceClient(fields),
    });
  });

  app.post('/actions/servicemlAction', async (request) => {
    const fields = bodyFields(request);
    return runServicemlAction(ctx, signedInPerson(request), {
      messageUid: requiredString(fields, 'messageUid'),
      actionId: requiredString(fields, 'actionId'),
      attachmentId: optionalString(fields, 'attachmentId'),
      client: serviceClient(fields),
    });
  });

  app.post('/actions/openAttachmentWidget', async (request) => {
    const fields = bodyFields(request);
    return openAttachmentWidget(ctx, signedInPerson(request), {
      messageUid: requiredString(fields, 'messageUid'),
      attachmentId: requiredString(fields, 'attachmentId'),
      client: serviceClient(fields),
    });
  });

  app.post('/actions/widgetAction', async (request) => {
    const fields = bodyFields(request);
    return runWidgetAction(ctx, signedInPerson(request), {
      appId: requiredString(fields, 'appId'),
      kind: requiredChoice(fields, 'kind', ['openWidget', 'openBrowser'] as const),
      url: requiredString(fields, 'url'),
      desktopType: optionalString(fields, 'desktopType'),
      mobileType: optionalString(fields, 'mobileType'),
      sendContext: optionalBoolean(fields, 'sendContext'),
      chat: optionalString(fields, 'chat'),
      messageUid: optionalString(fields, 'messageUid'),
      attachmentId: optionalString(fields, 'attachmentId'),
      client: serviceClient(fields),
    });
  });
}
