import { describe, expect, it } from 'vitest';
import { authorizeAddMembers, authorizeRemoveMembers, channelAbilities, type ChannelAccess } from '../../src/core/policies/channels.js';
import type { ChannelMembersTable, UsersTable } from '../../src/store/schema.js';

/**
 * The abilities a session's channels.getInfo answers (what the web client shows of the members dialog)
 * are the policy's own answer: for every kind of viewer, channel and membership, they say yes exactly
 * when adding or removing someone else would be let through. No probing with a made-up user. Setting the
 * purpose is its members' (guests excepted) and team admins', in a channel not archived.
 */
const someoneElse = ['u:someoneelsezzzzzz'];

function allowed(authorize: () => void): boolean {
  try {
    authorize();
    return true;
  } catch {
    return false;
  }
}

const viewers = {
  member: { role: 'user', bot_app_id: null },
  admin: { role: 'admin', bot_app_id: null },
  guest: { role: 'guest', bot_app_id: null },
  bot: { role: 'user', bot_app_id: 'a:app' },
} as const;

describe('channelAbilities', () => {
  for (const [viewerKind, fields] of Object.entries(viewers)) {
    for (const type of ['public', 'private'] as const) {
      for (const affiliation of [undefined, 'member', 'moderator'] as const) {
        it(`${viewerKind} in a ${type} channel, ${affiliation ?? 'not a member'}`, () => {
          const viewer = { id: 'u:viewerzzzzzzzzzz', team_id: 't:team', email: fields.bot_app_id ? null : 'v@example.test', ...fields } as unknown as UsersTable;
          const access: ChannelAccess = {
            channel: { id: 'g:channelzzzzzzzzz', team_id: 't:team', type, archived_at: null } as unknown as ChannelAccess['channel'],
            membership: affiliation && ({ channel_id: 'g:channelzzzzzzzzz', user_id: viewer.id, affiliation } as unknown as ChannelMembersTable),
          };
          expect(channelAbilities(viewer, access)).toEqual({
            addMembers: allowed(() => authorizeAddMembers(viewer, access, someoneElse)),
            removeMembers: allowed(() => authorizeRemoveMembers(viewer, access, someoneElse)),
            // Its members, guests excepted, and team admins say what it is about; bots never.
            setPurpose: viewerKind === 'admin' || (viewerKind === 'member' && affiliation !== undefined),
            // Its moderators and team admins rename it.
            rename: viewerKind === 'admin' || (viewerKind !== 'bot' && affiliation === 'moderator'),
          });
          // Archived, it takes no purpose from anyone, and a new name from a team admin only.
          const archived = channelAbilities(viewer, { ...access, channel: { ...access.channel, archived_at: 1 } });
          expect({ setPurpose: archived.setPurpose, rename: archived.rename }).toEqual({ setPurpose: false, rename: viewerKind === 'admin' });
        });
      }
    }
  }
});
