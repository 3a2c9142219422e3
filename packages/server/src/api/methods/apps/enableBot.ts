import { api } from '@aviary/protocol';
import { enableBot } from '../../../core/commands/apps.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';
import { callerActor, recordAudit } from '../../../core/audit/record.js';

export default defineHandler(api.apps.enableBot, async ({ appId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'credentials', 'enable the bot');
  const bot = await enableBot(ctx, callerActor(caller), { appId: app.id });
  await recordAudit(ctx.db, { teamId: app.team_id, actor: callerActor(caller), at: ctx.now(), action: 'app.botEnabled', target: { kind: 'app', id: app.id } });
  return bot;
});
