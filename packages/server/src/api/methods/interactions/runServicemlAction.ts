import { api } from '@aviary/protocol';
import { runServicemlAction } from '../../../core/interactions/servicemlAction.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.interactions.runServicemlAction, async ({ client = 'desktop', ...input }, { user: person }, ctx) =>
  runServicemlAction(ctx, person, { ...input, client }),
);
