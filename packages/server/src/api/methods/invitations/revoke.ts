import { api } from '@aviary/protocol';
import { revokeInvitation } from '../../../core/commands/invitations.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.invitations.revoke, async ({ invitationId }, { user }, ctx) => ({ invitation: await revokeInvitation(ctx, user, invitationId) }));
