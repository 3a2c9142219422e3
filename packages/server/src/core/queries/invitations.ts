import type { InvitationModel as Invitation } from '@aviary/protocol';
import type { InvitationsTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { hashToken } from '../../store/ids.js';
import { ApiError } from '../../errors.js';
import type { CoreContext } from '../context.js';
import { requireUsable, whyMayNotInvite } from '../policies/invitations.js';
import { presentInvitation } from '../presenters/invitations.js';

/** invitations.list: a member's own invitations, or every invitation of the team for an admin, the newest first. */
export async function listInvitations(ctx: CoreContext, actor: UsersTable): Promise<Invitation[]> {
  if (actor.role === 'guest' || actor.bot_app_id !== null) throw new ApiError('PermissionDenied', 'Guests and bots have no invitations to list.');
  let query = ctx.db.selectFrom('invitations').selectAll().where('team_id', '=', actor.team_id);
  if (actor.role !== 'admin') query = query.where('created_by', '=', actor.id);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(500).execute();
  const now = ctx.now();
  const paused = await makersWhoMayNotInvite(ctx.db, actor.team_id, rows);
  return rows.map((row) => presentInvitation(row, now, !paused.has(row.created_by)));
}

/** Of the invitations' makers, those who may no longer invite (their invitations are paused, findStandingMaker). */
async function makersWhoMayNotInvite(db: Db, teamId: string, rows: readonly InvitationsTable[]): Promise<Set<string>> {
  const makerIds = [...new Set(rows.map((row) => row.created_by))];
  if (makerIds.length === 0) return new Set();
  const team = await db.selectFrom('teams').select('who_may_invite').where('id', '=', teamId).executeTakeFirstOrThrow();
  const makers = await db.selectFrom('users').selectAll().where('id', 'in', makerIds).execute();
  return new Set(makers.filter((maker) => whyMayNotInvite(maker, team) !== undefined).map((maker) => maker.id));
}

/** The invitation a link's token stands for, if any (only the token's hash is stored). */
export async function findInvitationByToken(db: Db, token: string): Promise<InvitationsTable | undefined> {
  return db.selectFrom('invitations').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst();
}

/** What the invite page shows: the team, who invited, the role, the address of an email invitation. */
export async function invitationInfo(ctx: CoreContext, token: string) {
  const invitation = requireUsable(await findInvitationByToken(ctx.db, token), ctx.now());
  const team = await ctx.db.selectFrom('teams').select(['id', 'name']).where('id', '=', invitation.team_id).executeTakeFirstOrThrow();
  const inviter = await findStandingMaker(ctx.db, invitation);
  return { team, invitedBy: `${inviter.first_name} ${inviter.last_name}`.trim(), role: invitation.role, email: invitation.email };
}

/**
 * The invitation's maker, who must still be allowed to invite: an invitation is used with its maker's
 * standing as it is then, not as it was when it was made. Otherwise InvitationUnusable.
 */
export async function findStandingMaker(db: Db, invitation: InvitationsTable): Promise<UsersTable> {
  const maker = await db.selectFrom('users').selectAll().where('id', '=', invitation.created_by).executeTakeFirstOrThrow();
  const team = await db.selectFrom('teams').select('who_may_invite').where('id', '=', invitation.team_id).executeTakeFirstOrThrow();
  if (whyMayNotInvite(maker, team) !== undefined) {
    throw new ApiError('InvitationUnusable', 'Whoever made this invitation can no longer invite people; ask a team admin for a new one.', { parameter: 'inviteToken' });
  }
  return maker;
}
