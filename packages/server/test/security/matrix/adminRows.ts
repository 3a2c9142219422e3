import { expect } from 'vitest';
import { denied, OK, post, sessionGate, type Row } from './rows.js';
import { freshChannel } from './world.js';

/**
 * The admin console's methods × every actor (docs/reference/methods.md, admin.* and the channel
 * changes): only a team admin's session reaches them; every other person, of this team or another,
 * gets PermissionDenied, and no credential but a session is taken. Cells that change something act on a
 * fresh person or channel of their own, so that no cell changes what another sees.
 */
const refused = denied('PermissionDenied');
const adminsOnly: Row['expect'] = {
  ...sessionGate,
  otherTeam: refused, nonMember: refused, nonInstaller: refused, guest: refused, userDisabled: refused, teamDisabled: refused,
  anotherDeveloper: refused, owner: refused, admin: OK,
};

const freshPerson: Row['prepare'] = async ({ t, w }) => ({ user: (await t.f.person(w.teamA, { firstName: 'Fresh', lastName: 'Person' })).id });
const freshDeactivated: Row['prepare'] = async ({ t, w }) => {
  const person = await t.f.person(w.teamA, { firstName: 'Gone', lastName: 'Person' });
  await t.testStore.store.db.updateTable('users').set({ deactivated_at: Date.now() }).where('id', '=', person.id).execute();
  return { user: person.id };
};
const freshRoom: Row['prepare'] = async ({ t, w }) => ({ channel: await freshChannel(t, w) });

const person = (method: string, prepare: Row['prepare'], more: Record<string, unknown> = {}): Row => ({
  route: `v1 ${method} with a session`,
  credential: 'session',
  prepare,
  request: (ids) => post(`/v1/${method}`, { userId: ids.user, ...more }),
  expect: adminsOnly,
});

const channel = (method: string, more: Record<string, unknown> = {}): Row => ({
  route: `v1 ${method} with a session`,
  credential: 'session',
  prepare: freshRoom,
  request: (ids) => post(`/v1/${method}`, { channelId: ids.channel, ...more }),
  expect: adminsOnly,
});

export const adminRows: Row[] = [
  {
    route: 'v1 admin.listPeople with a session',
    credential: 'session',
    request: () => post('/v1/admin.listPeople', {}),
    expect: adminsOnly,
    // The admin's own team only: nobody of team B.
    reveals: (body, { w }) => expect(body.people.every((p: { user: { teamId: string } }) => p.user.teamId === w.teamA)).toBe(true),
  },
  {
    route: 'v1 admin.listChannels with a session',
    credential: 'session',
    request: () => post('/v1/admin.listChannels', {}),
    expect: adminsOnly,
    // Private channel P is listed to the admin (not a member of it) by name and count, never its messages.
    reveals: (body, { w }) => {
      expect(body.channels.some((c: { channel: { id: string }; isMember: boolean }) => c.channel.id === w.channel && !c.isMember)).toBe(true);
      expect(JSON.stringify(body)).not.toMatch(/"text"/);
    },
  },
  person('admin.setRole', freshPerson, { role: 'guest' }),
  person('admin.deactivatePerson', freshPerson),
  person('admin.reactivatePerson', freshDeactivated),
  person('admin.resetPassword', freshPerson),
  channel('channels.archive'),
  channel('channels.unarchive'),
  {
    // The channel's moderator (owner moderates it) renames it too; its other members may not, and whoever does not see it finds none.
    ...channel('channels.rename', { name: 'renamed by an admin' }),
    expect: { ...adminsOnly, owner: OK, otherTeam: denied('UnknownChannel', { parameter: 'channelId' }), nonMember: denied('UnknownChannel', { parameter: 'channelId' }) },
  },
  channel('channels.convertToPrivate'),
];
