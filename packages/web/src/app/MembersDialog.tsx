import type { MemberError } from '@aviary/protocol';
import { useCallback, useEffect, useState } from 'react';
import { failureText, methods, type Channel, type ChannelMembers, type Person } from '../api/client';
import { useStreamFrames } from '../stream/useStream';
import { Avatar, PresenceText } from './Avatar';
import { fullName } from './format';
import { Modal } from './Modal';
import { PeoplePicker } from './PeoplePicker';
import { navigate } from './route';
import { usePresence, useWorkspace } from './workspaceContext';
import { FormError } from './FormError';
import { ChannelWebhooks } from './ChannelWebhooks';
import { ChannelDetails } from './ChannelDetails';

/** Why the server could not add or remove one person, in the page's words. */
const memberErrorText: Record<MemberError, string> = {
  UserNotFound: 'there is no such person',
  UserNotFromSameTeam: 'they are not in this team',
  UserRestricted: 'they cannot be added here (a guest is added by a moderator, and a closed account not at all)',
  AlreadyMember: 'they are already a member',
  NotMember: 'they are not a member',
};

/**
 * A channel's members: who, moderators first, with what the server says the person may do. Adding and
 * removing follow the channel's rules (the server decides; a refusal is shown here as it words it), and
 * the list follows the stream's membership frames, so a change made elsewhere shows at once.
 */
export function MembersDialog({ channel, onClose }: { channel: Channel; onClose: () => void }) {
  const workspace = useWorkspace();
  const presenceOf = usePresence();
  const [members, setMembers] = useState<ChannelMembers>();
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    () =>
      Promise.all([methods.channels.getInfo({ channelId: channel.id }), methods.channels.listMembers({ channelId: channel.id, showPublicProfile: true })]).then(
        ([info, list]) => setMembers({ members: list, abilities: info.abilities ?? { addMembers: false, removeMembers: false, setPurpose: false, rename: false } }),
        (failure: unknown) => setProblem(failureText(failure)),
      ),
    [channel.id],
  );
  useEffect(() => void load(), [load]);
  useStreamFrames((frames) => {
    const changed = frames.some((frame) => (frame.type === 'channel.membersAdded' || frame.type === 'channel.membersRemoved') && frame.channel.id === channel.id);
    if (changed) void load();
  });

  const change = async (kind: 'add' | 'remove', person: { id: string; name: string }) => {
    setBusy(true);
    setProblem(undefined);
    setNotice('');
    try {
      const call = kind === 'add' ? methods.channels.addMembers : methods.channels.removeMembers;
      const status = (await call({ channelId: channel.id, members: [person.id] })).members[person.id];
      if (status?.status === 'failed') {
        setProblem(`${person.name} could not be ${kind === 'add' ? 'added' : 'removed'}: ${status.error ? memberErrorText[status.error] : 'the server refused'}.`);
      } else if (person.id === workspace.me.id) {
        // The sidebar first loses the channel, so that the page does not open it again.
        await workspace.refreshConversations();
        navigate('/');
        onClose();
        return;
      } else {
        setNotice(`${person.name} ${kind === 'add' ? 'was added' : 'was removed'}.`);
      }
      await load();
    } catch (failure) {
      setProblem(failureText(failure));
    } finally {
      setBusy(false);
    }
  };

  const memberIds = new Set(members?.members.map((member) => member.userId));
  const candidates = workspace.people.filter((person: Person) => !person.isBot && !memberIds.has(person.id));

  return (
    <Modal title={`Members of ${channel.type === 'private' ? '' : '#'}${channel.name}`} onClose={onClose} className="members-modal">
      <FormError text={problem} />
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {members === undefined ? (
        !problem && <p className="page-message">Loading…</p>
      ) : (
        <>
          <ChannelDetails channel={channel} abilities={members.abilities} />
          <ul className="modal-list" aria-label={`${members.members.length === 1 ? '1 member' : `${members.members.length} members`}`}>
            {members.members.map((member) => {
              const name = member.publicProfile ? fullName(member.publicProfile) : (workspace.nameOf(member.userId) ?? member.userId);
              const isMe = member.userId === workspace.me.id;
              const presence = presenceOf(member.userId);
              return (
                <li key={member.userId} className="modal-row">
                  <Avatar name={name} image={member.publicProfile?.profileImage} small presence={presence} />
                  <div className="modal-row-text">
                    <span className="picker-label">
                      {name}
                      {isMe ? ' (you)' : ''}
                      <PresenceText presence={presence} />
                    </span>
                    <span className="picker-detail">{member.affiliation === 'moderator' ? 'Moderator' : 'Member'}</span>
                  </div>
                  {(isMe || members.abilities.removeMembers) && (
                    <button type="button" className="secondary danger" disabled={busy} aria-label={isMe ? 'Leave the channel' : `Remove ${name}`} onClick={() => void change('remove', { id: member.userId, name })}>
                      {isMe ? 'Leave' : 'Remove'}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
          {members.abilities.addMembers ? (
            <PeoplePicker people={candidates} label="Add people" action="Add" disabled={busy} onPick={(person) => void change('add', { id: person.id, name: fullName(person) })} />
          ) : (
            <p className="members-note">
              {channel.type === 'private' ? 'Only the moderators of this private channel add people.' : 'Only members add people to this channel.'}
            </p>
          )}
          <ChannelWebhooks channel={channel} />
        </>
      )}
    </Modal>
  );
}
