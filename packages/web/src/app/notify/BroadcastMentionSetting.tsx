import { useEffect, useId, useState, type FormEvent } from 'react';
import { failureText, methods } from '../../api/client';
import { FormError } from '../FormError';

/**
 * A team admin's setting for the admin console: the channel size above which only team admins may use
 * @channel and @here (team.updateMentionSettings; 0, the default: anyone, anywhere).
 */
export function BroadcastMentionSetting() {
  const [saved, setSaved] = useState<number>();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const id = useId();
  useEffect(() => {
    methods.team.getInfo().then(
      ({ team }) => {
        setSaved(team.broadcastMentionLimit);
        setValue(String(team.broadcastMentionLimit));
      },
      (failure: unknown) => setError(failureText(failure)),
    );
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setStatus(undefined);
    methods.team.updateMentionSettings({ broadcastMentionLimit: Number(value) }).then(
      ({ team }) => {
        setSaved(team.broadcastMentionLimit);
        setStatus('Saved.');
      },
      (failure: unknown) => setError(failureText(failure)),
    );
  };
  return (
    <form className="modal-form account-section broadcast-setting" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>@channel and @here</h3>
      <p className="field-hint" id={`${id}-hint`}>
        In channels with more members than this, only team admins may notify everyone with @channel or @here. 0: anyone may, in any channel.
      </p>
      <label htmlFor={`${id}-limit`}>Largest channel where anyone may use them</label>
      <div className="notify-row">
        <input
          id={`${id}-limit`}
          type="number"
          inputMode="numeric"
          min={0}
          max={1_000_000}
          step={1}
          required
          value={value}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setValue(event.target.value)}
        />
        <button type="submit" className="primary" disabled={saved === undefined || value === String(saved)}>
          Save
        </button>
      </div>
      <FormError text={error} />
      <p role="status" className="field-hint">
        {status}
      </p>
    </form>
  );
}
