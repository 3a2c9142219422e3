import { clientRoutes } from '@aviary/protocol';
import { authorizeAddMembers, authorizeRemoveMembers, findVisibleChannel } from '../../../core/policies/channels.js';
import { presentChannel, presentChannelMember } from '../../../core/presenters/channels.js';
import { listChannelMemberRows } from '../../../core/queries/channels.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** Stands for "someone other than the person" when asking the policies what the person may do to others. */
const SOMEONE_ELSE = ['\u0000someone-else'];

/** Whether the policy lets the change through; the same checks the add and remove routes make. */
function allows(authorize: () => void): boolean {
  try {
    authorize();
    return true;
  } catch {
    return false;
  }
}

export default defineRouteHandler(clientRoutes.listChannelMembers, async ({ channelId }, person, ctx) => {
  const access = await findVisibleChannel(ctx.db, person, channelId);
  const rows = await listChannelMemberRows(ctx.db, channelId);
  return {
    channel: presentChannel(access.channel, rows.length),
    members: rows.map((row) => presentChannelMember(row, true)),
    canAddMembers: allows(() => authorizeAddMembers(person, access, SOMEONE_ELSE)),
    canRemoveMembers: allows(() => authorizeRemoveMembers(person, access, SOMEONE_ELSE)),
  };
});
