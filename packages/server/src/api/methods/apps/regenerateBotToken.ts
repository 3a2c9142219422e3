import { api } from '@aviary/protocol';
import { enableBot } from '../../../core/commands/apps.js';
import { ApiError } from '../../errors.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';
import { callerActor, recordAudit } from '../../../core/audit/record.js';

export default defineHandler(api.apps.regenerateBotToken, async ({ appId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'credentials', 'regenerate the bot token');
  if (app.bot_user_id === null) throw new ApiError('BotNotEnabled', 'The app has no bot yet; enable it with apps.enableBot.');
  const bot = await enableBot(ctx, callerActor(caller), { appId: app.id });
  await recordAudit(ctx.db, { teamId: app.team_id, actor: callerActor(caller), at: ctx.now(), action: 'app.botTokenRegenerated', target: { kind: 'app', id: app.id } });
  return bot;
});
