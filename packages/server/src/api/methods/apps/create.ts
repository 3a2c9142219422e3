import { api } from '@aviary/protocol';
import { createApp } from '../../../core/commands/apps.js';
import { presentDeveloperApp } from '../../../core/presenters/apps.js';
import { defineHandler } from '../../handler.js';
import { byPerson, recordAudit } from '../../../core/audit/record.js';

/** An app of the person's team, with the person as its developer; the answer carries its secret. */
export default defineHandler(api.apps.create, async (fields, { user, clientAddress }, ctx) => {
  const app = await createApp(ctx, user, fields);
  await recordAudit(ctx.db, { ...byPerson(user, clientAddress), at: ctx.now(), action: 'app.created', target: { kind: 'app', id: app.id }, details: { name: app.name } });
  return { app: presentDeveloperApp(app, { withSecret: true }) };
});
