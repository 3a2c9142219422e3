import { api } from '@aviary/protocol';
import { callerActor } from '../../../core/audit/record.js';
import { updateApp } from '../../../core/commands/apps.js';
import { presentDeveloperApp } from '../../../core/presenters/apps.js';
import { defineHandler } from '../../handler.js';
import { reachApp, requireRoutingAllowed } from '../../developerAccess.js';

export default defineHandler(api.apps.update, async ({ appId, ...changes }, caller, ctx) => {
  const reached = await reachApp(ctx.db, caller, appId);
  requireRoutingAllowed(reached, changes);
  const updated = await updateApp(ctx, callerActor(caller), { ...changes, appId: reached.app.id });
  return { app: presentDeveloperApp(updated, { withSecret: reached.abilities.has('credentials') }) };
});
