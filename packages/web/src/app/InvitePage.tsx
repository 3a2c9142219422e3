import { useEffect, useState, type FormEvent } from 'react';
import { failureText, methods, sessionApi } from '../api/client';
import { PublicCard } from './PublicCard';
import { navigate } from './route';
import type { Session } from './session';
import { useFieldRefusals } from './fieldRefusals';
import { TimeZoneField } from './TimeZoneField';

const fields = ['email', 'firstName', 'lastName', 'password', 'timezone', 'inviteToken'] as const;
type Info = Awaited<ReturnType<typeof methods.invitations.getInfo>>;

/** The browser's own time zone (an IANA name such as Europe/Paris): what the sign-up form offers first. */
const browserZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
  } catch {
    return 'UTC';
  }
};

/**
 * /invite/<token>: who invited to which team, then a sign-up form (name, email for a link, password, time
 * zone: the browser's, unless changed). The
 * new account is made with the invitation (invitations.accept) and signed in with the same email and
 * password, landing in the team.
 */
export function InvitePage({ token, onSignedIn }: { token: string; onSignedIn: (session: Session) => void }) {
  const [info, setInfo] = useState<Info>();
  const [unusable, setUnusable] = useState<string>();
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const { clear, refuse, invalid, refusal, formRefusal } = useFieldRefusals(fields);
  const [zone, setZone] = useState(browserZone);

  useEffect(() => {
    methods.invitations.getInfo({ inviteToken: token }).then(setInfo, (failure: unknown) => setUnusable(failureText(failure)));
  }, [token]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    clear();
    try {
      const joined = await methods.invitations.accept({
        inviteToken: token,
        ...(info?.email ? {} : { email }),
        firstName,
        lastName,
        password,
        timezone: zone,
      });
      const { user, team, streamCursor } = await sessionApi.signIn({ email: joined.email, password, teamId: joined.team.id });
      onSignedIn({ user, team, streamCursor });
      navigate('/', true);
    } catch (failure) {
      refuse(failure);
      setBusy(false);
    }
  };

  if (unusable) {
    return (
      <PublicCard title="This invitation cannot be used">
        <p role="alert">{unusable}</p>
        <a href="/signin">Sign in instead</a>
      </PublicCard>
    );
  }
  if (!info) return <p className="page-message" role="status">Loading…</p>;
  return (
    <PublicCard title={`Join ${info.team.name}`} onSubmit={submit}>
      <p className="field-hint">
        {info.invitedBy} invited you{info.role === 'guest' ? ' as a guest' : ''}. Choose how you sign in.
      </p>
      {info.email ? (
        <p>
          Email: <strong>{info.email}</strong>
        </p>
      ) : (
        <label>
          Email
          <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus {...invalid('email')} />
          {refusal('email')}
        </label>
      )}
      <label>
        First name
        <input autoComplete="given-name" required value={firstName} onChange={(e) => setFirstName(e.target.value)} autoFocus={Boolean(info.email)} {...invalid('firstName')} />
        {refusal('firstName')}
      </label>
      <label>
        Last name
        <input autoComplete="family-name" required value={lastName} onChange={(e) => setLastName(e.target.value)} {...invalid('lastName')} />
        {refusal('lastName')}
      </label>
      <label>
        Password
        <input type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} aria-describedby="password-rule" {...invalid('password')} />
        <span className="field-hint" id="password-rule">
          At least 8 characters, and not a common one.
        </span>
        {refusal('password')}
      </label>
      <TimeZoneField
        zone={zone}
        onChange={setZone}
        hint={(label) => `Times will be shown for ${label}; you can change it in your profile.`}
        invalid={invalid('timezone')}
        refusal={refusal('timezone')}
      />
      {refusal('inviteToken')}
      {formRefusal}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Joining…' : `Join ${info.team.name}`}
      </button>
    </PublicCard>
  );
}
