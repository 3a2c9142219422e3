import { api } from '@aviary/protocol';
import { requireTeamAdmin } from '../../../core/policies/admin.js';
import { listTeamPeople } from '../../../core/queries/admin.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.admin.listPeople, async (_params, { user }, ctx) => {
  requireTeamAdmin(user, 'list the team’s people with their roles and last activity');
  return { people: await listTeamPeople(ctx.db, user.team_id, ctx.now()) };
});
