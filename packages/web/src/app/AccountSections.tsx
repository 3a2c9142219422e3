import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { failureText, methods } from '../api/client';
import { useFieldRefusals } from './fieldRefusals';
import { dayLabel, formatTime } from './format';
import { useWorkspace } from './workspaceContext';

const passwordFields = ['currentPassword', 'newPassword'] as const;
type Session = Awaited<ReturnType<typeof methods.sessions.list>>['sessions'][number];

/**
 * "Change password": the current password and a new one. A refusal is shown under the field it names,
 * as the server words it; every other session ends, this one stays (users.changePassword).
 */
export function ChangePasswordSection({ onChanged }: { onChanged: () => void }) {
  const workspace = useWorkspace();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const { id, clear, refuse, invalid, refusal, formRefusal } = useFieldRefusals(passwordFields);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    clear();
    try {
      const { endedSessions } = await methods.users.changePassword({ currentPassword, newPassword });
      setCurrentPassword('');
      setNewPassword('');
      workspace.toast(endedSessions === 0 ? 'Your password is changed.' : `Your password is changed; ${endedSessions === 1 ? 'your other session was' : `your ${endedSessions} other sessions were`} signed out.`);
      onChanged();
    } catch (failure) {
      refuse(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="modal-form account-section" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Change password</h3>
      <label>
        Current password
        <input type="password" value={currentPassword} onChange={(event) => setCurrentPassword(event.target.value)} autoComplete="current-password" {...invalid('currentPassword')} />
        {refusal('currentPassword')}
      </label>
      <label>
        New password
        <input type="password" value={newPassword} onChange={(event) => setNewPassword(event.target.value)} autoComplete="new-password" aria-describedby={`${id}-rule`} {...invalid('newPassword')} />
        <span className="field-hint" id={`${id}-rule`}>
          At least 8 characters, and not a common one. Your other sessions will be signed out.
        </span>
        {refusal('newPassword')}
      </label>
      {formRefusal}
      <div className="modal-actions">
        <button type="submit" className="secondary" disabled={busy || currentPassword === '' || newPassword === ''}>
          Change password
        </button>
      </div>
    </form>
  );
}

/** "Your sessions": where the person is signed in, with "Sign out" on each other one and "Sign out everywhere else". */
export function SessionsSection({ version }: { version: number }) {
  const workspace = useWorkspace();
  const [sessions, setSessions] = useState<Session[]>();
  const [problem, setProblem] = useState<string>();
  const id = useId();

  const load = useCallback(async () => {
    try {
      setSessions((await methods.sessions.list({})).sessions);
      setProblem(undefined);
    } catch (failure) {
      setProblem(failureText(failure));
    }
  }, []);
  useEffect(() => void load(), [load, version]);

  const revoke = async (which: { sessionId: string } | { all: true; exceptCurrent: true }) => {
    try {
      const { revoked } = await methods.sessions.revoke(which);
      workspace.toast(revoked === 1 ? 'One session was signed out.' : `${revoked} sessions were signed out.`);
    } catch (failure) {
      setProblem(failureText(failure));
    }
    await load();
  };

  const others = sessions?.filter((session) => !session.current) ?? [];
  const { timeZone: timezone } = workspace.me;
  const seen = (session: Session) => {
    const at = session.lastSeenAt ?? session.createdAt;
    const day = dayLabel(at, timezone, Date.now());
    return `${session.lastSeenAt === null ? 'signed in' : 'last seen'} ${day === 'Today' || day === 'Yesterday' ? day.toLowerCase() : day} at ${formatTime(at, timezone)}`;
  };
  return (
    <section className="modal-form account-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Your sessions</h3>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {sessions === undefined ? (
        <p className="field-hint">Loading…</p>
      ) : (
        <ul className="session-list">
          {sessions.map((session) => (
            <li key={session.id} className="session-row">
              <span className="session-text">
                <span className="session-device">
                  {session.device}
                  {session.current && <span className="session-current"> (this browser)</span>}
                </span>
                <span className="field-hint">
                  {session.address ?? 'address unknown'} · {seen(session)}
                </span>
              </span>
              {!session.current && (
                <button type="button" className="secondary" aria-label={`Sign out ${session.device}, ${seen(session)}`} onClick={() => void revoke({ sessionId: session.id })}>
                  Sign out
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="modal-actions">
        <button type="button" className="secondary danger" disabled={others.length === 0} onClick={() => void revoke({ all: true, exceptCurrent: true })}>
          Sign out everywhere else
        </button>
      </div>
    </section>
  );
}
