import type { InvitationModel as Invitation } from '@aviary/protocol';
import { byPerson, recordAudit } from '../audit/record.js';
import type { ChannelsTable, InvitationsTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { lockName } from '../../store/rows/locks.js';
import { hashToken, newSecret, newUlid, newUserId } from '../../store/ids.js';
import { insertUser, isEmailTaken } from '../../store/rows/users.js';
import { ApiError, invalidParameter } from '../../errors.js';
import type { CommandContext, CoreContext } from '../context.js';
import type { PersonAt } from './accounts.js';
import { runChange } from '../effects/effects.js';
import { invitationMail, verificationMail } from '../mail/messages.js';
import { enqueueMail } from '../mail/outbox.js';
import { hashPassword } from '../passwords.js';
import { checkEmail, checkPersonFields } from '../personFields.js';
import { findVisibleChannel, visibleChannel } from '../policies/channels.js';
import { authorizeInvite, mayInviteInto, mayManageInvitation, requireUsable } from '../policies/invitations.js';
import { presentInvitation } from '../presenters/invitations.js';
import { presentChannel } from '../presenters/channels.js';
import { channelMembersAdded, userUpdated } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import { memberCount } from './internal/channelRows.js';
import { linkTo } from '../webLinks.js';
import { issueAccountLinkIn } from './internal/accountLinkRows.js';
import { checkTimeZone } from '../timeZones.js';
import { passwordsOff } from '../signIn/settings.js';
import { findInvitationByToken, findStandingMaker } from '../queries/invitations.js';

const HOUR_MS = 60 * 60 * 1000;
const DEFAULT_EXPIRY_HOURS = 168;

export interface InvitationInput {
  email?: string;
  role?: 'user' | 'guest';
  channelIds?: readonly string[];
  maxUses?: number;
  expiresInHours?: number;
}

/**
 * Makes an invitation: by email (one use, mailed after the commit when the server has SMTP) or an
 * invite link. Its channels must be ones the inviter may add people to (for a guest: with a moderator's
 * powers, as channels.addMembers asks). Only the token's hash is stored; the link is answered once. The
 * audit log's `invitation.created` is written in the same transaction.
 */
export async function createInvitation(ctx: CoreContext, { person: actor, address }: PersonAt, input: InvitationInput): Promise<{ invitation: Invitation; url: string | null; mailed: boolean }> {
  const team = await ctx.db.selectFrom('teams').select(['name', 'who_may_invite']).where('id', '=', actor.team_id).executeTakeFirstOrThrow();
  authorizeInvite(actor, team);
  const role = input.role ?? 'user';
  const email = input.email === undefined ? null : checkEmail(input.email);
  const channelIds = [...new Set(input.channelIds ?? [])];
  if (role === 'guest' && channelIds.length === 0) throw invalidParameter('channelIds', 'A guest sees only the channels the invitation names: give at least one in channelIds.');
  for (const channelId of channelIds) {
    const access = await findVisibleChannel(ctx.db, actor, channelId, 'channelIds');
    if (!mayInviteInto(actor, access, role)) throw new ApiError('PermissionDenied', `You may not add people to ${access.channel.name}${role === 'guest' ? ': only its moderators and team admins may add guests' : ''}.`, { parameter: 'channelIds' });
  }
  const maxUses = email !== null ? 1 : (input.maxUses ?? 1);
  if (email !== null && input.maxUses !== undefined && input.maxUses !== 1) throw invalidParameter('maxUses', 'An email invitation is used once; leave maxUses out, or make an invite link.');
  const now = ctx.now();
  const token = newSecret('inv_');
  const row: InvitationsTable = {
    id: `inv:${newUlid(now).toLowerCase()}`,
    team_id: actor.team_id,
    token_hash: hashToken(token),
    email,
    role,
    channel_ids: JSON.stringify(channelIds),
    max_uses: maxUses,
    uses: 0,
    expires_at: now + (input.expiresInHours ?? DEFAULT_EXPIRY_HOURS) * HOUR_MS,
    created_by: actor.id,
    created_at: now,
    revoked_at: null,
  };
  const url = linkTo(ctx.config, `/invite/${token}`);
  const mailed = email !== null && ctx.config.smtpUrl !== undefined;
  await runChange(ctx, async (tx, effects) => {
    if (email !== null) await refuseInvitedAgain(tx, actor.team_id, email, now);
    await tx.insertInto('invitations').values(row).execute();
    if (mailed) {
      const inviter = `${actor.first_name} ${actor.last_name}`.trim();
      await enqueueMail(tx, effects, invitationMail(email, { teamName: team.name, inviter, link: url, expiresAt: row.expires_at }), now);
    }
    await recordAudit(tx, { ...byPerson(actor, address), at: now, action: 'invitation.created', target: { kind: 'invitation', id: row.id }, details: { role, byEmail: email !== null } });
  });
  return { invitation: presentInvitation(row, now), url: mailed ? null : url, mailed };
}

/**
 * An address is invited once: not when it already has an account in the team, nor while an invitation
 * for it is waiting (revoking that one lets a new one be sent). Invitations of one address take turns
 * here (PostgreSQL), so two sent at once cannot both pass.
 */
async function refuseInvitedAgain(tx: Tx, teamId: string, email: string, now: number): Promise<void> {
  await lockName(tx, `invitations of ${teamId} for ${email}`);
  const member = await tx.selectFrom('users').select('id').where('team_id', '=', teamId).where('email', '=', email).executeTakeFirst();
  if (member) throw invalidParameter('email', `${email} already has an account in this team: they sign in with it (“Forgot password?” sets a new password).`);
  const waiting = await tx
    .selectFrom('invitations')
    .select('created_at')
    .where('team_id', '=', teamId)
    .where('email', '=', email)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .whereRef('uses', '<', 'max_uses')
    .executeTakeFirst();
  if (waiting) {
    throw invalidParameter('email', `${email} was invited on ${new Date(Number(waiting.created_at)).toISOString().slice(0, 10)} and that invitation is still waiting; revoke it (invitations.revoke) to send a new one.`);
  }
}

/** Revokes an invitation its maker (or a team admin) may manage; the audit log's `invitation.revoked` is written in the same transaction. */
export async function revokeInvitation(ctx: CommandContext, { person: actor, address }: PersonAt, { invitationId }: { invitationId: string }): Promise<Invitation> {
  const now = ctx.now();
  return runChange(ctx, async (tx) => {
    const row = await tx.selectFrom('invitations').selectAll().where('id', '=', invitationId).executeTakeFirst();
    if (!row || !mayManageInvitation(actor, row)) {
      throw invalidParameter('invitationId', 'invitationId is not an invitation you may revoke; invitations.list gives the ids of yours.');
    }
    await tx.updateTable('invitations').set({ revoked_at: now }).where('id', '=', row.id).where('revoked_at', 'is', null).execute();
    await recordAudit(tx, { ...byPerson(actor, address), at: now, action: 'invitation.revoked', target: { kind: 'invitation', id: invitationId } });
    return presentInvitation({ ...row, revoked_at: row.revoked_at ?? now }, now);
  });
}

/**
 * The channels an invitation still adds its new person to. An invitation acts with its maker's standing
 * when it is used, not only when it was made: the maker must still be allowed to invite
 * (findStandingMaker), and a channel is added only while the maker still sees it and may add people of
 * the invitation's role to it, and it is not archived. The others are left out; a guest's invitation
 * left with none is unusable, since a guest sees nothing else.
 */
async function channelsStillOffered(tx: Tx, invitation: InvitationsTable): Promise<ChannelsTable[]> {
  const maker = await findStandingMaker(tx, invitation);
  const offered: ChannelsTable[] = [];
  for (const channelId of JSON.parse(invitation.channel_ids) as string[]) {
    const access = await visibleChannel(tx, maker, channelId);
    if (access && access.channel.archived_at === null && mayInviteInto(maker, access, invitation.role)) offered.push(access.channel);
  }
  if (invitation.role === 'guest' && offered.length === 0) throw new ApiError('InvitationUnusable', 'None of the channels this invitation names can take you any more; ask whoever invited you for a new one.', { parameter: 'inviteToken' });
  return offered;
}

export interface SignUp {
  inviteToken: string;
  email?: string;
  firstName: string;
  lastName: string;
  password: string;
  timezone?: string;
}

/**
 * Signs a person up with an invitation. The use is counted by one conditional UPDATE in the same
 * transaction as the new account, so the last use of a link goes to one sign-up only, and a sign-up that
 * fails (an email already in the team) uses nothing. An email invitation's address is verified by its
 * use; a link's, when the server sends mail, by a verification mail sent after the commit.
 */
export async function acceptInvitation(ctx: CoreContext, { address }: { address: string | null }, input: SignUp) {
  const now = ctx.now();
  const invitation = requireUsable(await findInvitationByToken(ctx.db, input.inviteToken), now);
  if (invitation.email !== null && input.email !== undefined && input.email.trim().toLowerCase() !== invitation.email) {
    throw invalidParameter('email', `This invitation is for ${invitation.email}; leave email out, or ask for an invitation for your address.`);
  }
  if (invitation.email === null && input.email === undefined) throw invalidParameter('email', 'Give your email address: you sign in with it.');
  // A password account in a team that signs in through its provider alone could never sign in; the invitation stays unused.
  if (await passwordsOff(ctx.db, invitation.team_id)) {
    throw new ApiError(
      'PasswordSignInOff',
      'This team signs in through its single sign-on provider only: use “Sign in with single sign-on” on the sign-in page with your work email. Your invitation is left unused.',
    );
  }
  const fields = checkPersonFields({ email: invitation.email ?? input.email, firstName: input.firstName, lastName: input.lastName, password: input.password });
  const timezone = input.timezone === undefined ? 'UTC' : checkTimeZone('timezone', input.timezone);
  const passwordHash = await hashPassword(fields.password!);
  const verified = invitation.email !== null || ctx.config.smtpUrl === undefined;
  const team = await ctx.db.selectFrom('teams').select(['id', 'name']).where('id', '=', invitation.team_id).executeTakeFirstOrThrow();
  const user = await runChange(ctx, async (tx, effects) => {
    const emailTaken = () => invalidParameter('email', `${fields.email} already has an account in ${team.name}; sign in instead, or use “Forgot password?”.`);
    const taken = await tx.selectFrom('users').select('id').where('team_id', '=', invitation.team_id).where('email', '=', fields.email).executeTakeFirst();
    if (taken) throw emailTaken();
    const used = await tx
      .updateTable('invitations')
      .set((eb) => ({ uses: eb('uses', '+', 1) }))
      .where('id', '=', invitation.id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .whereRef('uses', '<', 'max_uses')
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) requireUsable(await tx.selectFrom('invitations').selectAll().where('id', '=', invitation.id).executeTakeFirst(), now);
    const channels = await channelsStillOffered(tx, invitation);
    const row = await insertUser(tx, {
      id: newUserId(),
      team_id: invitation.team_id,
      email: fields.email,
      first_name: fields.firstName,
      last_name: fields.lastName,
      role: invitation.role,
      timezone,
      password_hash: passwordHash,
      email_unverified: verified ? 0 : 1,
      created_at: now,
    }).catch((error: unknown) => {
      // The same email signed up a moment ago, after the look above (the form sent twice, say).
      throw isEmailTaken(error) ? emailTaken() : error;
    });
    for (const channel of channels) {
      await tx.insertInto('channel_members').values({ channel_id: channel.id, user_id: row.id, affiliation: 'member', joined_at: now }).onConflict((c) => c.columns(['channel_id', 'user_id']).doNothing()).execute();
    }
    // Announced once in their channels, so that the guests there hear of them too.
    await recordStreamEntries(tx, effects, row.team_id, [await userUpdated(tx, row, now)], now);
    for (const channel of channels) {
      await recordStreamEntries(tx, effects, row.team_id, [channelMembersAdded(presentChannel(channel, await memberCount(tx, channel.id)), [row.id])], now);
    }
    if (!verified) {
      const link = await issueAccountLinkIn(tx, row.id, 'verify', now);
      await enqueueMail(tx, effects, verificationMail(row.email!, { teamName: team.name, link: linkTo(ctx.config, `/verify-email#${link}`) }), now);
    }
    await recordAudit(tx, { teamId: team.id, actor: { userId: row.id, address }, at: now, action: 'invitation.accepted', target: { kind: 'user', id: row.id } });
    return row;
  });
  return { userId: user.id, team, email: fields.email, emailVerified: verified };
}
