import { api } from '@aviary/protocol';
import { regenerateBotToken } from '../../../core/commands/apps.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';
import { callerActor } from '../../../core/audit/record.js';

export default defineHandler(api.apps.regenerateBotToken, async ({ appId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'credentials', 'regenerate the bot token');
  return regenerateBotToken(ctx, callerActor(caller), { appId: app.id });
});
