import { api } from '@aviary/protocol';
import { callerActor } from '../../../core/audit/record.js';
import { checkIntegrations } from '../../../core/appFields.js';
import { updateApp } from '../../../core/commands/apps.js';
import { defineHandler } from '../../handler.js';
import { reachApp, requireRoutingAllowed } from '../../developerAccess.js';

/** `integrations` is the whole object, so a problem is named by its path inside it (`integrations.slashCommands[0].name`). */
export default defineHandler(api.apps.setIntegrations, async ({ appId, integrations: given }, caller, ctx) => {
  const reached = await reachApp(ctx.db, caller, appId);
  const integrations = checkIntegrations(given);
  requireRoutingAllowed(reached, { integrations });
  await updateApp(ctx, callerActor(caller), { appId: reached.app.id, integrations });
  return { integrations };
});
