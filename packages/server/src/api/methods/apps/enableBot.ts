import { api } from '@aviary/protocol';
import { enableBot } from '../../../core/commands/apps.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';
import { callerActor } from '../../../core/audit/record.js';

export default defineHandler(api.apps.enableBot, async ({ appId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'credentials', 'enable the bot');
  return enableBot(ctx, callerActor(caller), { appId: app.id });
});
