import { api } from '@aviary/protocol';
import { requireTeamAdmin } from '../../../core/policies/admin.js';
import { listTeamApps } from '../../../core/queries/adminApps.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.admin.listApps, async (_params, { user }, ctx) => {
  requireTeamAdmin(user, 'list the team’s apps with their installs');
  return { apps: await listTeamApps(ctx.db, user.team_id) };
});
