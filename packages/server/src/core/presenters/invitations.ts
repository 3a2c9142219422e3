import type { InvitationModel as Invitation } from '@aviary/protocol';
import type { InvitationsTable } from '../../store/schema.js';
import { invitationState } from '../policies/invitations.js';

/** `makerMayInvite`: false when its maker may no longer invite, which pauses an invitation otherwise active. */
export function presentInvitation(row: InvitationsTable, now: number, makerMayInvite = true): Invitation {
  const state = invitationState(row, now);
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
    state: state === 'active' && !makerMayInvite ? 'paused' : state,
  };
}
