import { api } from '@aviary/protocol';
import { developerOf } from '../../../core/queries/apps.js';
import { sendPlannedTestEvent } from '../../../core/testEvents/send.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';

/** The event is from the caller; from the app's developer when the app itself sends it. */
export default defineHandler(api.deliveries.sendTestEvent, async ({ appId, name, ...overrides }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'deliveries', 'see or act on its event deliveries');
  const from = caller.kind === 'appSecret' ? await developerOf(ctx.db, app) : caller.user;
  return sendPlannedTestEvent(ctx, app, from, name, overrides);
});
