import { api } from '@aviary/protocol';
import { revokeInvitation } from '../../../core/commands/invitations.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.invitations.revoke, async (params, { user, clientAddress }, ctx) => ({
  invitation: await revokeInvitation(ctx, { person: user, address: clientAddress }, params),
}));
