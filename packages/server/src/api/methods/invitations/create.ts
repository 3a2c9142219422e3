import { api } from '@aviary/protocol';
import { createInvitation } from '../../../core/commands/invitations.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.invitations.create, async (params, { user, clientAddress }, ctx) => createInvitation(ctx, { person: user, address: clientAddress }, params));
