import { api } from '@aviary/protocol';
import { setTeamIcon } from '../../../core/pictures/ownerPictures.js';
import { presentTeam } from '../../../core/presenters/teams.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.team.removeIcon, async (_params, { user, clientAddress }, ctx) => ({ team: presentTeam(await setTeamIcon(ctx, { admin: user, address: clientAddress }, { fileId: null })) }));
