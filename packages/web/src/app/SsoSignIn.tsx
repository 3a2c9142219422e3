import { useEffect, useState, type FormEvent } from 'react';
import './signIn.css';
import { sessionApi } from '../api/client';

/** What the server offers (GET /api/session/methods); undefined while it is asked. */
export interface SignInMethods {
  password: boolean;
  /** off; a button (one team offers single sign-on); or email (several do: the work email picks the team). */
  sso: 'off' | 'button' | 'email';
}

/** Where single sign-on starts: the server sends the browser on to the team's provider. */
const SSO_START = '/api/sso/start';

export function useSignInMethods(): SignInMethods | undefined {
  const [methods, setMethods] = useState<SignInMethods>();
  useEffect(() => {
    let live = true;
    // Without an answer the page keeps the password form, as before single sign-on.
    sessionApi.getSignInMethods({}).then(
      (answer) => live && setMethods(answer),
      () => live && setMethods({ password: true, sso: 'off' }),
    );
    return () => {
      live = false;
    };
  }, []);
  return methods;
}

/** What each refusal of a single sign-on (the server's `?sso=`) tells the person to do. */
const refusals: Record<string, string> = {
  notConfigured: 'Single sign-on is not set up for that team or email. Check the email, sign in with your password, or ask a team admin.',
  severalTeams: 'Your email has accounts in several teams here. Use your team’s own sign-in link (a team admin finds it in the admin console), or sign in with your password.',
  expired: 'That sign-in took too long or was already used. Start again with the button below.',
  otherBrowser: 'The sign-in came back to another browser than the one that started it. Start again here, in this browser.',
  provider: 'Your identity provider did not complete the sign-in. Try again; if it keeps failing, ask a team admin to check the single sign-on settings.',
  unverifiedEmail: 'Your identity provider has not confirmed your email address. Confirm it there, then try again.',
  domain: 'Your email’s domain is not one this team accepts. Sign in with your work account, or ask a team admin.',
  noAccount: 'There is no account for your email in this team. Ask a team admin to invite you.',
  deactivated: 'Your account is deactivated. Ask a team admin to reactivate it.',
  busy: 'Too many sign-ins from here just now. Wait a minute, then try again.',
  unreachable: 'Aviary could not reach the identity provider. Try again in a moment; if it persists, tell a team admin.',
};

/** The refusal the server sent the browser back with, in words; undefined for none. */
export function ssoRefusal(search: string): string | undefined {
  const code = new URLSearchParams(search).get('sso');
  if (code === null) return undefined;
  return refusals[code] ?? refusals.provider;
}

/**
 * Single sign-on: a plain link when one team offers it (the browser leaves for the provider); when several
 * do, the button asks for the work email first, and the server finds the team from it.
 */
export function SsoButtons({ methods }: { methods: SignInMethods }) {
  const [asking, setAsking] = useState(false);
  const [email, setEmail] = useState('');
  if (methods.sso === 'off') return null;
  const start = (event: FormEvent) => {
    event.preventDefault();
    window.location.assign(`${SSO_START}?email=${encodeURIComponent(email.trim())}`);
  };
  return (
    <div className="sso-choices">
      {methods.sso === 'button' ? (
        <a className="button primary sso-button" href={SSO_START}>
          Sign in with single sign-on
        </a>
      ) : asking ? (
        <div className="sso-email" role="group" aria-label="Single sign-on">
          <label>
            Work email
            <input type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} autoFocus onKeyDown={(e) => e.key === 'Enter' && email.includes('@') && start(e)} />
          </label>
          <button type="button" className="primary sso-button" disabled={!email.includes('@')} onClick={start}>
            Continue with single sign-on
          </button>
        </div>
      ) : (
        <button type="button" className="primary sso-button" onClick={() => setAsking(true)}>
          Sign in with single sign-on
        </button>
      )}
      {methods.password && <p className="sso-or">or with your email and password</p>}
    </div>
  );
}
