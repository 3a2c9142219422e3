import { Modal } from './Modal';
import { PeoplePicker } from './PeoplePicker';
import { chatPath, navigate } from './route';
import { useWorkspace } from './workspaceContext';

/**
 * The roster, searched by name: picking someone opens the direct chat with them, the one that exists or
 * a new one (a direct chat is its two people; it is in both sidebars from its first message on).
 */
export function NewDirectMessageDialog({ onClose }: { onClose: () => void }) {
  const workspace = useWorkspace();
  const people = workspace.people.filter((person) => person.id !== workspace.me.id);
  return (
    <Modal title="New direct message" onClose={onClose} className="members-modal">
      <PeoplePicker
        people={people}
        label="Find a person"
        action="Message"
        autoFocus
        onPick={(person) => {
          navigate(chatPath(person.id));
          onClose();
        }}
      />
    </Modal>
  );
}
