import type { InvitationModel as Invitation } from '@aviary/protocol';
import type { InvitationsTable } from '../../store/schema.js';
import { invitationState } from '../policies/invitations.js';

export function presentInvitation(row: InvitationsTable, now: number): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    channelIds: JSON.parse(row.channel_ids) as string[],
    maxUses: row.max_uses,
    uses: row.uses,
    expiresAt: row.expires_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
    state: invitationState(row, now),
  };
}
