import { Modal } from './Modal';

/** An action that asks first: what it does, in the person's words, and the button that does it. */
export interface Confirmation {
  title: string;
  text: string;
  action: string;
  run: () => void;
}

/** Asks before an action that is hard or impossible to take back (deactivating someone, making a channel private). */
export function ConfirmDialog({ confirmation, onClose }: { confirmation: Confirmation; onClose: () => void }) {
  return (
    <Modal title={confirmation.title} onClose={onClose}>
      <div className="modal-form">
        <p>{confirmation.text}</p>
        <div className="modal-actions">
          {/* The focus starts on Cancel: Enter, or a key held down, must not do what cannot be taken back. */}
          <button type="button" className="secondary" onClick={onClose} data-autofocus>
            Cancel
          </button>
          <button
            type="button"
            className="primary danger-button"
            onClick={() => {
              onClose();
              confirmation.run();
            }}
          >
            {confirmation.action}
          </button>
        </div>
      </div>
    </Modal>
  );
}
