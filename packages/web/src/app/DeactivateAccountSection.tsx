import { useState, type FormEvent } from 'react';
import { methods } from '../api/client';
import { useFieldRefusals } from './fieldRefusals';

const fields = ['password'] as const;

/**
 * "Deactivate account": the person ends their own account with their password (users.deactivateAccount).
 * Their messages stay; every session ends, this one too, so the page goes back to signing in.
 */
export function DeactivateAccountSection() {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const { id, clear, refuse, invalid, refusal, formRefusal } = useFieldRefusals(fields);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    clear();
    try {
      await methods.users.deactivateAccount({ password });
      window.location.assign('/');
    } catch (failure) {
      refuse(failure);
      setBusy(false);
    }
  };

  return (
    <form className="modal-form account-section" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Deactivate account</h3>
      <p className="field-hint">Your messages stay. You are signed out everywhere, and your app tokens stop working. Only a team admin can reactivate you.</p>
      <label>
        Password
        <input type="password" value={password} onChange={(event) => setPassword(event.target.value)} autoComplete="current-password" {...invalid('password')} />
        {refusal('password')}
      </label>
      {formRefusal}
      <div className="modal-actions">
        <button type="submit" className="secondary danger" disabled={busy || password === ''}>
          Deactivate my account
        </button>
      </div>
    </form>
  );
}
