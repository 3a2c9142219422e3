import { api } from '@aviary/protocol';
import { invitationInfo } from '../../../core/queries/invitations.js';
import { defineHandler } from '../../handler.js';

/** Anyone holding the link; the dispatcher limits calls per address. */
export default defineHandler(api.invitations.getInfo, async ({ inviteToken }, _caller, ctx) => invitationInfo(ctx, inviteToken));
