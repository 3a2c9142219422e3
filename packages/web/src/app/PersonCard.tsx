import { Avatar } from './Avatar';
import { fullName } from './format';
import { Modal } from './Modal';
import { chatPath, navigate } from './route';
import { StatusText } from './StatusText';
import { usePresence, useWorkspace } from './workspaceContext';

/**
 * Who a person is, opened from their name or picture on a message: their picture, name, status and
 * presence, and **Message** to open the direct chat with them (with a bot: with its app's bot). A message
 * an app sent under a name of its choosing opens its real sender's.
 */
export function PersonCard({ userId, onClose }: { userId: string; onClose: () => void }) {
  const workspace = useWorkspace();
  const presence = usePresence()(userId);
  const person = workspace.people.find((candidate) => candidate.id === userId);
  const name = person ? fullName(person) : (workspace.nameOf(userId) ?? 'Someone');
  const isMe = userId === workspace.me.id;
  return (
    <Modal title={name} onClose={onClose} className="person-card">
      <div className="person-card-body">
        <Avatar name={name} image={workspace.pictureOf(userId)} />
        <div className="person-card-text">
          <p className="person-card-name">
            {name}
            {isMe ? ' (you)' : ''}
          </p>
          {person?.isBot && <p className="person-card-detail">Bot</p>}
          {presence !== undefined && <p className="person-card-detail">{presence === 'online' ? 'Online' : 'Away'}</p>}
          <StatusText status={person?.status} />
          {!person && <p className="person-card-detail">No longer in the team’s directory.</p>}
        </div>
      </div>
      {person && !isMe && (
        <div className="modal-actions">
          <button
            type="button"
            className="primary"
            onClick={() => {
              onClose();
              navigate(chatPath(userId));
            }}
          >
            Message
          </button>
        </div>
      )}
    </Modal>
  );
}
