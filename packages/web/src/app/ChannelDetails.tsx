import { useState, type FormEvent } from 'react';
import { failureText, methods, type Channel, type ChannelMembers } from '../api/client';
import { FormError } from './FormError';

/**
 * A channel's name and purpose, at the top of its members dialog: shown to everyone, each changed in
 * place by those the server says may (channels.getInfo's `abilities`: `rename`, `setPurpose`); members
 * see the change in their header and sidebar at once (`channel.updated`).
 */
export function ChannelDetails({ channel, abilities }: { channel: Channel; abilities: ChannelMembers['abilities'] }) {
  return (
    <div className="channel-details">
      {abilities.rename && (
        <EditableField
          label="Name"
          value={channel.name}
          maxLength={255}
          save={(name) => methods.channels.rename({ channelId: channel.id, name })}
        />
      )}
      <EditableField
        label="Purpose"
        value={channel.purpose}
        empty="No purpose yet."
        multiline
        maxLength={1024}
        save={abilities.setPurpose ? (purpose) => methods.channels.setPurpose({ channelId: channel.id, purpose }) : undefined}
      />
    </div>
  );
}

/** One field: its value and Edit (when `save` is given), or a form that saves it; the server's refusal in place. */
function EditableField({ label, value, empty, multiline, maxLength, save }: {
  label: string;
  value: string;
  empty?: string;
  multiline?: boolean;
  maxLength: number;
  save?: ((draft: string) => Promise<unknown>) | undefined;
}) {
  const [draft, setDraft] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!save || draft === undefined) return;
    setBusy(true);
    setProblem(undefined);
    try {
      await save(draft);
      setDraft(undefined);
    } catch (failure) {
      setProblem(failureText(failure));
    } finally {
      setBusy(false);
    }
  };

  if (draft !== undefined) {
    const input = { value: draft, maxLength, autoFocus: true, onChange: (event: { target: { value: string } }) => setDraft(event.target.value) };
    return (
      <form className="channel-field" onSubmit={submit}>
        <label>
          {label}
          {multiline ? <textarea {...input} rows={2} placeholder="What is this channel about?" /> : <input {...input} />}
        </label>
        <FormError text={problem} />
        <div className="channel-field-actions">
          <button type="button" className="secondary" disabled={busy} onClick={() => setDraft(undefined)}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Save
          </button>
        </div>
      </form>
    );
  }
  return (
    <div className="channel-field">
      <div className="channel-field-text">
        <span className="channel-field-label">{label}</span>
        <p className={value ? undefined : 'empty'}>{value || empty}</p>
      </div>
      {save && (
        <button type="button" className="secondary" aria-label={`Edit the ${label.toLowerCase()}`} onClick={() => setDraft(value)}>
          Edit
        </button>
      )}
    </div>
  );
}
