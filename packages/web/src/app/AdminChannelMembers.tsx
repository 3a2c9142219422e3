import { useCallback, useId, useState, type FormEvent } from 'react';
import type { ChannelMemberStatusModel, ChannelModel } from '@aviary/protocol';
import { methods } from '../api/client';
import { Avatar } from './Avatar';
import { fullName } from './format';
import { AdminProblem, useAdminList } from './useAdminList';
import { useWorkspace } from './workspaceContext';

/** Why a person was not added or removed, in words (a ChannelMemberStatus's error). */
const refusals: Record<NonNullable<ChannelMemberStatusModel['error']>, string> = {
  UserNotFound: 'no such person',
  UserNotFromSameTeam: 'not of this team',
  UserRestricted: 'deactivated, or a bot',
  AlreadyMember: 'already a member',
  NotMember: 'not a member',
};

/** Throws when the server did not change `userId`'s membership, so that the console shows why. */
function expectDone(statuses: Record<string, ChannelMemberStatusModel>, userId: string, name: string): void {
  const status = statuses[userId];
  if (status?.status === 'failed') throw new Error(`${name}: ${status.error ? refusals[status.error] : 'not changed'}.`);
}

/**
 * One channel's members in the admin console: a team admin lists, adds and removes them in any channel
 * of the team, private ones the admin is not in too (channels.listMembers/addMembers/removeMembers with
 * the admin's session; the server records each such change in the audit log). `onChanged` refreshes the
 * channel list's counts.
 */
export function AdminChannelMembers({ channel, onChanged }: { channel: ChannelModel; onChanged: () => Promise<void> }) {
  const workspace = useWorkspace();
  const listMembers = useCallback(() => methods.channels.listMembers({ channelId: channel.id, showPublicProfile: true }), [channel.id]);
  const { items: members, problem, act } = useAdminList(listMembers);
  const [adding, setAdding] = useState('');
  const id = useId();
  const label = `#${channel.name}`;

  const memberIds = new Set((members ?? []).map((member) => member.userId));
  const candidates = [workspace.me, ...workspace.people.filter((person) => !person.isBot && person.id !== workspace.me.id)]
    .filter((person) => !memberIds.has(person.id))
    .sort((a, b) => fullName(a).localeCompare(fullName(b)));
  const change = (work: () => Promise<unknown>, done: string) =>
    act(async () => {
      await work();
      await onChanged();
    }, done);
  const add = (event: FormEvent) => {
    event.preventDefault();
    const person = candidates.find((candidate) => candidate.id === adding);
    if (!person) return;
    setAdding('');
    const name = fullName(person);
    void change(async () => expectDone((await methods.channels.addMembers({ channelId: channel.id, members: [person.id] })).members, person.id, name), `${name} is in ${label} now.`);
  };

  return (
    <div className="admin-members" role="region" aria-label={`Members of ${label}`}>
      <AdminProblem problem={problem} />
      {members === undefined ? (
        <p className="field-hint">Loading…</p>
      ) : (
        <ul className="admin-member-list" aria-label={`Members of ${label}`}>
          {members.map((member) => {
            const name = member.publicProfile ? fullName(member.publicProfile) : (workspace.nameOf(member.userId) ?? member.userId);
            return (
              <li key={member.userId} className="admin-member">
                <Avatar name={name} image={member.publicProfile?.profileImage} small />
                <span className="admin-member-name">
                  {name}
                  {member.affiliation === 'moderator' && <span className="admin-badge"> · moderator</span>}
                </span>
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Remove ${name} from ${label}`}
                  onClick={() =>
                    void change(async () => expectDone((await methods.channels.removeMembers({ channelId: channel.id, members: [member.userId] })).members, member.userId, name), `${name} left ${label}.`)
                  }
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form className="admin-add-member" onSubmit={add}>
        <label htmlFor={`${id}-person`}>Add to {label}</label>
        <select id={`${id}-person`} value={adding} onChange={(event) => setAdding(event.target.value)}>
          <option value="">Choose a person…</option>
          {candidates.map((person) => (
            <option key={person.id} value={person.id}>
              {fullName(person)}
            </option>
          ))}
        </select>
        <button type="submit" className="primary" disabled={adding === ''}>
          Add
        </button>
      </form>
    </div>
  );
}
