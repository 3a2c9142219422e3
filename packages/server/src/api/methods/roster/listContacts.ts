import { api } from '@aviary/protocol';
import { presentPublicProfile, type PublicProfileRow } from '../../../core/presenters/users.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.roster.listContacts, async (_params, caller, ctx) => {
  const me = caller.user;
  const teammates = await ctx.db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'profile_image'])
    .where('team_id', '=', me.team_id)
    .where('id', '!=', me.id)
    // People only: bots come from the caller's installs below, and the team's system user has no email either.
    .where('email', 'is not', null)
    .where('deactivated_at', 'is', null)
    .execute();
  const bots = await ctx.db
    .selectFrom('installs as i')
    .innerJoin('apps as a', 'a.id', 'i.app_id')
    .innerJoin('users as u', 'u.id', 'a.bot_user_id')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.profile_image'])
    .where('i.user_id', '=', me.id)
    .where('u.deactivated_at', 'is', null)
    .execute();
  return [...teammates, ...bots].sort(byName).map(presentPublicProfile);
});

/** In code, not SQL: the two dialects collate text differently, and the order must not depend on it. */
function byName(a: PublicProfileRow, b: PublicProfileRow): number {
  return a.first_name.localeCompare(b.first_name) || a.last_name.localeCompare(b.last_name) || (a.id < b.id ? -1 : 1);
}
