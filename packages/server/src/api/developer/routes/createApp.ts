import { developerRoutes } from '@aviary/protocol';
import { createApp } from '../../../core/commands/apps.js';
import { presentDeveloperApp } from '../../../core/presenters/apps.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { byPerson, recordAudit } from '../../../core/audit/record.js';

/** An app of the person's team, with the person as its developer; the answer carries its secret. */
export default defineRouteHandler(developerRoutes.createApp, async (fields, person, ctx, exchange) => {
  const app = await createApp(ctx.db, { ...fields, teamId: person.team_id, developerId: person.id, now: ctx.now() });
  await recordAudit(ctx.db, { ...byPerson(person, exchange.clientAddress()), at: ctx.now(), action: 'app.created', target: { kind: 'app', id: app.id }, details: { name: app.name } });
  return { app: presentDeveloperApp(app, { withSecret: true }) };
});
