import { useState, type FormEvent } from 'react';
import { failureText, methods } from '../api/client';
import { chatPath, navigate } from './route';
import { Modal } from './Modal';
import { useWorkspace } from './workspaceContext';
import { FormError } from './FormError';

/**
 * Whether a channel the person can see (one they are in, or a public one) already has this name, letter
 * case aside: two channels named alike could not be told apart in any list.
 */
async function nameTaken(name: string): Promise<boolean> {
  const [mine, open] = await Promise.all([methods.channels.list(), methods.channels.listPublic()]);
  const same = (other: string) => other.localeCompare(name, undefined, { sensitivity: 'accent' }) === 0;
  return mine.some((channel) => same(channel.name)) || open.channels.some((entry) => same(entry.channel.name));
}

/** The sidebar's "+": a channel's name, purpose and visibility; the server's refusal is shown as it words it. */
export function CreateChannelDialog({ onClose }: { onClose: () => void }) {
  const workspace = useWorkspace();
  const [name, setName] = useState('');
  const [purpose, setPurpose] = useState('');
  const [type, setType] = useState<'public' | 'private'>('public');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      if (await nameTaken(name.trim())) {
        setError(`There is already a channel named #${name.trim()}: pick another name, or join that one (Browse channels).`);
        setBusy(false);
        return;
      }
      const { id } = await methods.channels.create({ name: name.trim(), purpose: purpose.trim() || undefined, type, members: [] });
      await workspace.refreshConversations();
      navigate(chatPath(id));
      onClose();
    } catch (failure) {
      setError(failureText(failure));
      setBusy(false);
    }
  };

  return (
    <Modal title="Create a channel" onClose={onClose}>
      <form className="modal-form" onSubmit={submit}>
        <label>
          Name
          <input value={name} onChange={(event) => setName(event.target.value)} maxLength={255} required data-autofocus placeholder="e.g. design" />
        </label>
        <label>
          <span>
            Purpose <span className="optional">(optional)</span>
          </span>
          <input value={purpose} onChange={(event) => setPurpose(event.target.value)} maxLength={1024} placeholder="What is this channel about?" />
        </label>
        <fieldset>
          <legend>Who can find it</legend>
          <label className="choice">
            <input type="radio" name="channel-type" checked={type === 'public'} onChange={() => setType('public')} />
            Public: anyone in the team can browse and join it
          </label>
          <label className="choice">
            <input type="radio" name="channel-type" checked={type === 'private'} onChange={() => setType('private')} />
            Private: only the people you add
          </label>
        </fieldset>
        <FormError text={error} />
        <div className="modal-actions">
          <button type="submit" className="primary" disabled={busy || name.trim() === ''}>
            Create channel
          </button>
        </div>
      </form>
    </Modal>
  );
}
