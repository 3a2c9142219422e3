import { api } from '@aviary/protocol';
import { revokeInvitation } from '../../../core/commands/invitations.js';
import { defineHandler } from '../../handler.js';
import { byPerson, recordAudit } from '../../../core/audit/record.js';

export default defineHandler(api.invitations.revoke, async ({ invitationId }, { user, clientAddress }, ctx) => {
  const invitation = await revokeInvitation(ctx, user, invitationId);
  await recordAudit(ctx.db, { ...byPerson(user, clientAddress), at: ctx.now(), action: 'invitation.revoked', target: { kind: 'invitation', id: invitationId } });
  return { invitation };
});
