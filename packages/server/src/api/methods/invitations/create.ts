import { api } from '@aviary/protocol';
import { createInvitation } from '../../../core/commands/invitations.js';
import { defineHandler } from '../../handler.js';
import { byPerson, recordAudit } from '../../../core/audit/record.js';

export default defineHandler(api.invitations.create, async (params, { user, clientAddress }, ctx) => {
  const created = await createInvitation(ctx, user, params);
  await recordAudit(ctx.db, { ...byPerson(user, clientAddress), at: ctx.now(), action: 'invitation.created', target: { kind: 'invitation', id: created.invitation.id }, details: { role: created.invitation.role, byEmail: created.invitation.email !== null } });
  return created;
});
