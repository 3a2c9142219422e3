import { useState, type FormEvent } from 'react';
import { failureText, methods, type Channel } from '../api/client';
import { FormError } from './FormError';

/**
 * What a channel is about, at the top of its members dialog: shown to everyone, and changed in place by
 * those the server says may (channels.getInfo's `abilities.setPurpose`); its members see the change in
 * the header at once (`channel.updated`).
 */
export function ChannelPurpose({ channel, editable }: { channel: Channel; editable: boolean }) {
  const [draft, setDraft] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      await methods.channels.setPurpose({ channelId: channel.id, purpose: draft ?? '' });
      setDraft(undefined);
    } catch (failure) {
      setProblem(failureText(failure));
    } finally {
      setBusy(false);
    }
  };

  if (draft !== undefined) {
    return (
      <form className="channel-purpose" onSubmit={save}>
        <label>
          Purpose
          <textarea value={draft} maxLength={1024} rows={2} autoFocus placeholder="What is this channel about?" onChange={(event) => setDraft(event.target.value)} />
        </label>
        <FormError text={problem} />
        <div className="channel-purpose-actions">
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
    <div className="channel-purpose">
      <div className="channel-purpose-text">
        <span className="channel-purpose-label">Purpose</span>
        <p className={channel.purpose ? undefined : 'empty'}>{channel.purpose || 'No purpose yet.'}</p>
      </div>
      {editable && (
        <button type="button" className="secondary" aria-label="Edit the purpose" onClick={() => setDraft(channel.purpose)}>
          Edit
        </button>
      )}
    </div>
  );
}
