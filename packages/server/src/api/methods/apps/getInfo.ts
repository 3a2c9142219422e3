import { api } from '@aviary/protocol';
import { presentDeveloperApp } from '../../../core/presenters/apps.js';
import { defineHandler } from '../../handler.js';
import { reachApp } from '../../developerAccess.js';

/** The secret only for those who may hold it: the developer and the app itself, not a team admin. */
export default defineHandler(api.apps.getInfo, async ({ appId }, caller, ctx) => {
  const { app, abilities } = await reachApp(ctx.db, caller, appId);
  return { app: presentDeveloperApp(app, { withSecret: abilities.has('credentials') }) };
});
