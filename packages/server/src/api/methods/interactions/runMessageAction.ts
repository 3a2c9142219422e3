import { api } from '@aviary/protocol';
import { runMessageAction } from '../../../core/interactions/messageAction.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.interactions.runMessageAction, async ({ client = 'desktop', ...input }, { user: person }, ctx) =>
  runMessageAction(ctx, person, { ...input, client }),
);
