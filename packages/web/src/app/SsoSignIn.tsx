import { useEffect, useState } from 'react';
import './signIn.css';
import { sessionApi } from '../api/client';

/** What the server offers (GET /api/session/methods); undefined while it is asked. */
export interface SignInMethods {
  password: boolean;
  sso: Array<{ teamId: string; teamName: string; ssoUrl: string }>;
}

export function useSignInMethods(): SignInMethods | undefined {
  const [methods, setMethods] = useState<SignInMethods>();
  useEffect(() => {
    let live = true;
    // Without an answer the page keeps the password form, as before single sign-on.
    sessionApi.getSignInMethods({}).then(
      (answer) => live && setMethods(answer),
      () => live && setMethods({ password: true, sso: [] }),
    );
    return () => {
      live = false;
    };
  }, []);
  return methods;
}

/** What each refusal of a single sign-on (the server's `?sso=`) tells the person to do. */
const refusals: Record<string, string> = {
  notConfigured: 'Single sign-on is not set up for that team. Sign in with your password, or ask a team admin.',
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

/** A button per team that signs in through its identity provider: plain links, since the browser leaves for the provider. */
export function SsoButtons({ methods }: { methods: SignInMethods }) {
  if (methods.sso.length === 0) return null;
  const several = methods.sso.length > 1;
  return (
    <div className="sso-choices">
      {methods.sso.map((choice) => (
        <a key={choice.teamId} className="button primary sso-button" href={choice.ssoUrl}>
          {several ? `Sign in to ${choice.teamName} with single sign-on` : 'Sign in with single sign-on'}
        </a>
      ))}
      {methods.password && <p className="sso-or">or with your email and password</p>}
    </div>
  );
}
