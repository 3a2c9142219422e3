import { useEffect, useState } from 'react';
import { failureText, methods, type Channel } from '../api/client';
import { chatPath, navigate } from './route';
import { Modal } from './Modal';
import { useWorkspace } from './workspaceContext';
import { FormError } from './FormError';

/** The team's public channels: join one, or open one the person is already in. */
export function BrowseChannelsDialog({ onClose }: { onClose: () => void }) {
  const workspace = useWorkspace();
  const [channels, setChannels] = useState<{ channel: Channel; isMember: boolean }[]>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    methods.channels.listPublic().then((answer) => setChannels(answer.channels), (failure: unknown) => setError(failureText(failure)));
  }, []);

  const open = async (channel: Channel, join: boolean) => {
    try {
      if (join) {
        await methods.channels.join({ channelId: channel.id });
        await workspace.refreshConversations();
      }
      navigate(chatPath(channel.id));
      onClose();
    } catch (failure) {
      setError(failureText(failure));
    }
  };

  return (
    <Modal title="Browse channels" onClose={onClose}>
      <FormError text={error} />
      {channels === undefined ? (
        <p className="page-message">Loading…</p>
      ) : channels.length === 0 ? (
        <p className="page-message">No public channels yet.</p>
      ) : (
        <ul className="modal-list" aria-label="Public channels">
          {channels.map(({ channel, isMember }) => (
            <li key={channel.id} className="modal-row">
              <div className="modal-row-text">
                <span className="picker-label"># {channel.name}</span>
                <span className="picker-detail">
                  {channel.memberCount} {channel.memberCount === 1 ? 'member' : 'members'}
                  {channel.purpose ? ` · ${channel.purpose}` : ''}
                </span>
              </div>
              <button type="button" className={isMember ? 'secondary' : 'primary'} onClick={() => void open(channel, !isMember)} aria-label={`${isMember ? 'Open' : 'Join'} ${channel.name}`}>
                {isMember ? 'Open' : 'Join'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
