import { useEffect, useState, type FormEvent } from 'react';
import { failureText, methods, sessionApi } from '../api/client';
import { useFieldRefusals } from './fieldRefusals';
import { PublicCard } from './PublicCard';
import { navigate } from './route';
import type { Session } from './session';

/** The token of a mailed link: after the `#`, so that it never reaches a server log or a Referer. */
const linkToken = (): string => decodeURIComponent(location.hash.slice(1));

/** /forgot-password: asks for a reset link by email; the answer is the same whether the address has an account. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const { clear, refuse, invalid, refusal, formRefusal } = useFieldRefusals(['email'] as const);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    clear();
    try {
      await methods.users.requestPasswordReset({ email });
      setSent(true);
    } catch (failure) {
      refuse(failure);
    } finally {
      setBusy(false);
    }
  };
  if (sent) {
    return (
      <PublicCard title="Check your mail">
        <p role="status">If {email} has an account, a link to set a new password is on its way. It works once, for one hour.</p>
        <a href="/signin">Back to sign in</a>
      </PublicCard>
    );
  }
  return (
    <PublicCard title="Forgot password" onSubmit={submit}>
      <p className="field-hint">Give the email you sign in with; we mail you a link to set a new password.</p>
      <label>
        Email
        <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus {...invalid('email')} />
        {refusal('email')}
      </label>
      {formRefusal}
      <button type="submit" className="primary" disabled={busy || email.trim() === ''}>
        Mail me a link
      </button>
      <a href="/signin">Back to sign in</a>
    </PublicCard>
  );
}

/** /reset-password#<token>: a new password (the same rules as everywhere); every session ends, then this one signs in. */
export function ResetPasswordPage({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [newPassword, setNewPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const { clear, refuse, invalid, refusal, formRefusal } = useFieldRefusals(['newPassword', 'linkToken'] as const);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    clear();
    try {
      const { email, teamId } = await methods.users.resetPassword({ linkToken: linkToken(), newPassword });
      const { user, team, streamCursor } = await sessionApi.signIn({ email, password: newPassword, teamId });
      onSignedIn({ user, team, streamCursor });
      navigate('/', true);
    } catch (failure) {
      refuse(failure);
      setBusy(false);
    }
  };
  return (
    <PublicCard title="Set a new password" onSubmit={submit}>
      <label>
        New password
        <input type="password" autoComplete="new-password" required value={newPassword} onChange={(e) => setNewPassword(e.target.value)} autoFocus aria-describedby="reset-rule" {...invalid('newPassword')} />
        <span className="field-hint" id="reset-rule">
          At least 8 characters, and not a common one. Every session of yours will be signed out.
        </span>
        {refusal('newPassword')}
      </label>
      {refusal('linkToken')}
      {formRefusal}
      <button type="submit" className="primary" disabled={busy || newPassword === ''}>
        Set password and sign in
      </button>
    </PublicCard>
  );
}

/** /verify-email#<token>: confirms the address at once. */
export function VerifyEmailPage() {
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();
  useEffect(() => {
    methods.users.verifyEmail({ linkToken: linkToken() }).then(
      ({ email }) => setOutcome({ ok: true, text: `${email} is verified. Thank you.` }),
      (failure: unknown) => setOutcome({ ok: false, text: failureText(failure) }),
    );
  }, []);
  return (
    <PublicCard title="Verify your email">
      <p role={outcome?.ok === false ? 'alert' : 'status'}>{outcome?.text ?? 'Verifying…'}</p>
      <a href="/">Open Aviary</a>
    </PublicCard>
  );
}
