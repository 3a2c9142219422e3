import { useId, useState, type FormEvent } from 'react';
import { methods } from '../api/client';
import { ConfirmDialog, type Confirmation } from './ConfirmDialog';
import { AdminChannelMembers } from './AdminChannelMembers';
import { AdminProblem, useAdminList } from './useAdminList';

const listChannels = async () => (await methods.admin.listChannels({})).channels;

/**
 * Every channel of the team: archive or unarchive it, rename it, make a public one private, and manage
 * its members (private channels the admin is not in too: AdminChannelMembers).
 */
export function AdminChannelsSection() {
  const { items: channels, problem, act, load } = useAdminList(listChannels);
  const [renaming, setRenaming] = useState<{ id: string; name: string }>();
  const [managing, setManaging] = useState<string>();
  const [confirming, setConfirming] = useState<Confirmation>();
  const id = useId();

  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (!renaming) return;
    const { id: channelId, name } = renaming;
    setRenaming(undefined);
    void act(() => methods.channels.rename({ channelId, name }), `The channel is now #${name.trim()}.`);
  };

  return (
    <section className="modal-form account-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Channels</h3>
      <AdminProblem problem={problem} />
      {channels === undefined ? (
        <p className="field-hint">Loading…</p>
      ) : (
        <ul className="session-list" aria-label="Channels">
          {channels.map(({ channel, isMember }) => {
            const archived = channel.archivedAt !== undefined;
            const label = `#${channel.name}`;
            return (
              <li key={channel.id} className="session-row admin-row">
                {renaming?.id === channel.id ? (
                  <form className="admin-rename" onSubmit={rename}>
                    <label>
                      New name of {label}
                      <input value={renaming.name} onChange={(event) => setRenaming({ id: channel.id, name: event.target.value })} data-autofocus />
                    </label>
                    <button type="submit" className="primary">
                      Rename
                    </button>
                    <button type="button" className="secondary" onClick={() => setRenaming(undefined)}>
                      Cancel
                    </button>
                  </form>
                ) : (
                  <span className="session-text">
                    <span className="session-device">
                      {label}
                      {archived && <span className="admin-badge"> · archived</span>}
                    </span>
                    <span className="field-hint">
                      {channel.type} · {channel.memberCount} {channel.memberCount === 1 ? 'member' : 'members'}
                      {isMember ? ' · you are a member' : ''}
                    </span>
                  </span>
                )}
                <span className="admin-actions">
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Members of ${label}`}
                    aria-expanded={managing === channel.id}
                    onClick={() => setManaging(managing === channel.id ? undefined : channel.id)}
                  >
                    Members
                  </button>
                  <button type="button" className="secondary" aria-label={`Rename ${label}`} onClick={() => setRenaming({ id: channel.id, name: channel.name })}>
                    Rename
                  </button>
                  {channel.type === 'public' && (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Make private: ${label}`}
                      onClick={() =>
                        setConfirming({
                          title: `Make ${label} private?`,
                          text: `Only its members will see ${label} and its history from then on; nobody else can find or join it. A private channel cannot be made public again.`,
                          action: 'Make private',
                          run: () => void act(() => methods.channels.convertToPrivate({ channelId: channel.id }), `${label} is private now.`),
                        })
                      }
                    >
                      Make private
                    </button>
                  )}
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`${archived ? 'Unarchive' : 'Archive'} ${label}`}
                    onClick={() =>
                      void act(
                        () => (archived ? methods.channels.unarchive({ channelId: channel.id }) : methods.channels.archive({ channelId: channel.id })),
                        archived ? `${label} is unarchived.` : `${label} is archived.`,
                      )
                    }
                  >
                    {archived ? 'Unarchive' : 'Archive'}
                  </button>
                </span>
                {managing === channel.id && <AdminChannelMembers channel={channel} onChanged={load} />}
              </li>
            );
          })}
        </ul>
      )}
      {confirming && <ConfirmDialog confirmation={confirming} onClose={() => setConfirming(undefined)} />}
    </section>
  );
}
