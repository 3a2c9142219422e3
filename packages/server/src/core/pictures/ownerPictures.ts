import type { TeamRow, UsersTable } from '../../store/schema.js';
import { byPerson } from '../audit/record.js';
import type { AdminActor } from '../commands/administerPeople.js';
import { writeTeamChange } from '../commands/teams.js';
import type { CoreContext } from '../context.js';
import { requireTeamAdmin } from '../policies/admin.js';
import { userUpdated } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import { replacePicture } from './pictures.js';

/**
 * users.setProfileImage and users.removeProfileImage: the person's picture (`profile_image`), made from
 * their upload or removed; the team sees the change live (user.updated).
 */
export async function setProfilePicture(ctx: CoreContext, person: UsersTable, { fileId }: { fileId: string | null }): Promise<UsersTable> {
  const owner = { team_id: person.team_id, owner_kind: 'person' as const, owner_id: person.id };
  return replacePicture(ctx, person, owner, fileId, async (tx, url, effects) => {
    await tx.updateTable('users').set({ profile_image: url }).where('id', '=', person.id).execute();
    const row = await tx.selectFrom('users').selectAll().where('id', '=', person.id).executeTakeFirstOrThrow();
    await recordStreamEntries(tx, effects, row.team_id, [await userUpdated(tx, row, ctx.now())], ctx.now());
    return row;
  });
}

/** team.setIcon and team.removeIcon: a team admin's, recorded in the audit log as a change of the team's settings; the team sees it live (team.updated). */
export async function setTeamIcon(ctx: CoreContext, { admin, address }: AdminActor, { fileId }: { fileId: string | null }): Promise<TeamRow> {
  requireTeamAdmin(admin, fileId === null ? 'remove the team’s icon' : 'set the team’s icon');
  const owner = { team_id: admin.team_id, owner_kind: 'team' as const, owner_id: admin.team_id };
  return replacePicture(ctx, admin, owner, fileId, (tx, url, effects) =>
    writeTeamChange(tx, effects, ctx.now(), { ...byPerson(admin, address), change: { icon_url: url }, details: { icon: url === null ? 'removed' : 'set' } }),
  );
}
