import { api } from '@aviary/protocol';
import { presentTeam } from '../../../core/presenters/teams.js';
import { getTeam } from '../../../core/queries/teams.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.team.getInfo, async (_params, { user }, ctx) => ({ team: presentTeam(await getTeam(ctx.db, user.team_id)) }));
