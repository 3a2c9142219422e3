import { clientRoutes } from '@aviary/protocol';
import { openAttachmentWidget } from '../../../core/interactions/openAttachmentWidget.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.openAttachmentWidget, async ({ client = 'desktop', ...input }, person, ctx) =>
  openAttachmentWidget(ctx, person, { ...input, client }),
);
