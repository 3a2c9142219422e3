import { api } from '@aviary/protocol';
import { createApp } from '../../../core/commands/apps.js';
import { presentDeveloperApp } from '../../../core/presenters/apps.js';
import { defineHandler } from '../../handler.js';

/** An app of the person's team, with the person as its developer; the answer carries its secret. */
export default defineHandler(api.apps.create, async (fields, { user }, ctx) => {
  const app = await createApp(ctx.db, { ...fields, teamId: user.team_id, developerId: user.id, now: ctx.now() });
  return { app: presentDeveloperApp(app, { withSecret: true }) };
});
