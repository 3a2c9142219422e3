import { api } from '@aviary/protocol';
import { listInvitations } from '../../../core/queries/invitations.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.invitations.list, async (_params, { user }, ctx) => ({ invitations: await listInvitations(ctx, user) }));
