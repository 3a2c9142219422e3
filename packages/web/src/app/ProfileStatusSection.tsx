import { useEffect, useId, useState, type FormEvent } from 'react';
import { methods } from '../api/client';
import { useFieldRefusals } from './fieldRefusals';
import { useWorkspace } from './workspaceContext';

const fields = ['statusText', 'statusEmoji', 'statusExpiresAt'] as const;
const HOUR = 60 * 60_000;
/** How long a status stays, in milliseconds from now; 0: until changed. */
const lifetimes = [
  ['0', 'Until I change it'],
  [String(30 * 60_000), '30 minutes'],
  [String(HOUR), '1 hour'],
  [String(4 * HOUR), '4 hours'],
  [String(24 * HOUR), '1 day'],
  [String(7 * 24 * HOUR), '1 week'],
] as const;

/** The person's status: a text with an optional emoji, cleared after the time chosen (users.updateProfile). */
export function ProfileStatusSection() {
  const workspace = useWorkspace();
  const [text, setText] = useState('');
  const [emoji, setEmoji] = useState('');
  const [lifetime, setLifetime] = useState('0');
  const { clear, refuse, invalid, refusal, formRefusal } = useFieldRefusals(fields);
  const id = useId();
  useEffect(() => {
    methods.users.getPublicProfile({ userId: workspace.me.id }).then(
      ({ status }) => {
        setText(status?.text ?? '');
        setEmoji(status?.emoji ?? '');
      },
      () => undefined,
    );
  }, [workspace.me.id]);

  const save = async (event: FormEvent, clearing = false) => {
    event.preventDefault();
    clear();
    try {
      const stays = Number(lifetime);
      await methods.users.updateProfile(
        clearing || text.trim() === '' ? { statusText: null } : { statusText: text, statusEmoji: emoji === '' ? null : emoji, statusExpiresAt: stays === 0 ? 0 : Date.now() + stays },
      );
      if (clearing) setText('');
      workspace.toast(clearing || text.trim() === '' ? 'Your status is cleared.' : 'Your status is set.');
    } catch (failure) {
      refuse(failure);
    }
  };

  return (
    <form className="modal-form account-section" onSubmit={(event) => void save(event)} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Status</h3>
      <label>
        Emoji (optional)
        <input value={emoji} onChange={(event) => setEmoji(event.target.value)} maxLength={32} {...invalid('statusEmoji')} />
        {refusal('statusEmoji')}
      </label>
      <label>
        Status text
        <input value={text} onChange={(event) => setText(event.target.value)} maxLength={100} placeholder="In a meeting" {...invalid('statusText')} />
        {refusal('statusText')}
      </label>
      <label>
        Clear after
        <select value={lifetime} onChange={(event) => setLifetime(event.target.value)}>
          {lifetimes.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        {refusal('statusExpiresAt')}
      </label>
      {formRefusal}
      <div className="modal-actions">
        <button type="button" className="secondary" onClick={(event) => void save(event, true)}>
          Clear status
        </button>
        <button type="submit" className="primary">
          Set status
        </button>
      </div>
    </form>
  );
}
