import { api } from '@aviary/protocol';
import { runWidgetAction } from '../../../core/interactions/widgetAction.js';
import { defineHandler } from '../../handler.js';

/** The widget's own call (Aviary.openWidget / openBrowser), checked as an integration's action is. */
export default defineHandler(api.interactions.runWidgetAction, async ({ client = 'desktop', ...input }, { user: person }, ctx) =>
  runWidgetAction(ctx, person, { ...input, client }),
);
