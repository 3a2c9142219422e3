import { api } from '@aviary/protocol';
import { openAttachmentWidget } from '../../../core/interactions/openAttachmentWidget.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.interactions.openAttachmentWidget, async ({ client = 'desktop', ...input }, { user: person }, ctx) =>
  openAttachmentWidget(ctx, person, { ...input, client }),
);
