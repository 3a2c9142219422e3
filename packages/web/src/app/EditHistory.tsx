import { useEffect, useState } from 'react';
import { failureText, methods, type Message } from '../api/client';
import { formatFullTime } from './format';
import { FormError } from './FormError';
import { Modal } from './Modal';
import { useWorkspace } from './workspaceContext';

type Edit = Awaited<ReturnType<typeof methods.chat.listMessageEdits>>['edits'][number];

/**
 * "(edited)" under an edited message, its time on hover; for a team admin, a button that opens the
 * message's edit history (EditHistoryDialog).
 */
export function EditedMark({ message, editedAt }: { message: Message; editedAt: number }) {
  const workspace = useWorkspace();
  const [open, setOpen] = useState(false);
  const title = `Edited ${formatFullTime(editedAt, workspace.me.timeZone)}`;
  if (workspace.me.role !== 'admin') {
    return (
      <span className="message-edited" title={title}>
        (edited)
      </span>
    );
  }
  return (
    <>
      <button type="button" className="message-edited edited-button" title={`${title}: see what it said before`} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        (edited)
      </button>
      {open && <EditHistoryDialog message={message} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * A team admin's view of what an edited message said before each edit (chat.listMessageEdits, for team
 * admins only: moderation, as the audit log is): the text now, then each earlier text, newest first, with
 * when it was replaced and by whom. Texts are shown as typed, not rendered.
 */
function EditHistoryDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const workspace = useWorkspace();
  const zone = workspace.me.timeZone;
  const [edits, setEdits] = useState<Edit[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    methods.chat.listMessageEdits({ messageUid: message.uid }).then(
      (answer) => setEdits([...answer.edits].reverse()),
      (failure: unknown) => setError(failureText(failure)),
    );
  }, [message.uid]);
  return (
    <Modal title="Edit history" onClose={onClose} className="edit-history">
      <div className="modal-form">
        <FormError text={error} />
        {edits === undefined && !error && <p role="status">Loading…</p>}
        {edits && (
          <ol className="edit-versions">
            <li>
              <p className="edit-when">Now{message.editedAt !== undefined ? ` (edited ${formatFullTime(message.editedAt, zone)})` : ''}</p>
              <p className="edit-text">{message.text}</p>
            </li>
            {edits.map((edit) => (
              <li key={edit.editedAt}>
                <p className="edit-when">
                  Before {workspace.nameOf(edit.editedBy) ?? 'someone'}’s edit of {formatFullTime(edit.editedAt, zone)}
                </p>
                <p className="edit-text">{edit.previousText}</p>
              </li>
            ))}
          </ol>
        )}
      </div>
    </Modal>
  );
}
