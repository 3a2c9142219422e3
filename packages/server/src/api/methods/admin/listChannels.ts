import { api } from '@aviary/protocol';
import { requireTeamAdmin } from '../../../core/policies/admin.js';
import { listTeamChannels } from '../../../core/queries/admin.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.admin.listChannels, async (_params, { user }, ctx) => {
  requireTeamAdmin(user, 'list every channel of the team');
  return { channels: await listTeamChannels(ctx.db, user.team_id, user.id) };
});
