import { api } from '@aviary/protocol';
import { createApp } from '../../../core/commands/apps.js';
import { presentDeveloperApp } from '../../../core/presenters/apps.js';
import { defineHandler } from '../../handler.js';
import { callerActor } from '../../../core/audit/record.js';

/** An app of the person's team, with the person as its developer; the answer carries its secret. */
export default defineHandler(api.apps.create, async (fields, caller, ctx) => {
  const app = await createApp(ctx, callerActor(caller), { ...fields, developer: caller.user });
  return { app: presentDeveloperApp(app, { withSecret: true }) };
});
