import { useId, useState, type FormEvent } from 'react';
import { AviaryApiError, failureText, sessionApi, type TeamChoice } from '../api/client';
import type { Session } from './session';
import { ssoRefusal, SsoButtons, useSignInMethods } from './SsoSignIn';

/**
 * Email and password. When they open accounts in several teams the server answers TeamRequired with
 * the teams, and the person picks one before signing in again.
 */
export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [teams, setTeams] = useState<TeamChoice[]>();
  const [teamId, setTeamId] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const methods = useSignInMethods();
  const refusal = ssoRefusal(window.location.search);
  const passwords = methods?.password !== false;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      // The answer names the team and the stream position too: no second round trip before the workspace loads.
      const { user, team, streamCursor } = await sessionApi.signIn({ email, password, ...(teams && teamId ? { teamId } : {}) });
      onSignedIn({ user, team, streamCursor });
    } catch (error) {
      if (error instanceof AviaryApiError && error.code === 'TeamRequired' && Array.isArray(error.body.teams)) {
        const choices = error.body.teams as TeamChoice[];
        setTeams(choices);
        setTeamId(choices[0]?.id);
      } else {
        setProblem(signInProblem(error));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="signin">
      <form className="signin-card" onSubmit={submit} aria-describedby={problem ? errorId : undefined}>
        <div className="brand" aria-hidden="true">
          <span className="brand-mark">A</span> Aviary
        </div>
        <h1>Sign in</h1>
        {refusal && (
          <p className="form-error sso-refusal" role="alert">
            {refusal}
          </p>
        )}
        {methods && <SsoButtons methods={methods} />}
        {passwords && (
          <>
            <label>
              Email
              <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
            </label>
            <label>
              Password
              <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
            </label>
          </>
        )}
        {teams && (
          <fieldset className="team-choice">
            <legend>This account is in several teams. Which one?</legend>
            {teams.map((team) => (
              <label key={team.id} className="radio">
                <input
                  type="radio"
                  name="team"
                  value={team.id}
                  checked={teamId === team.id}
                  onChange={() => setTeamId(team.id)}
                  autoFocus={team.id === teams[0]?.id}
                />
                {team.name}
              </label>
            ))}
          </fieldset>
        )}
        {problem && (
          <p className="form-error" role="alert" id={errorId}>
            {problem}
          </p>
        )}
        {passwords && (
          <>
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Signing in…' : teams ? 'Sign in to this team' : 'Sign in'}
            </button>
            <a href="/forgot-password" className="signin-aside">
              Forgot password?
            </a>
          </>
        )}
      </form>
    </main>
  );
}

function signInProblem(error: unknown): string {
  if (error instanceof AviaryApiError && error.code === 'InvalidCredentials') return 'That email and password do not match an account.';
  // The password was right, but the team signs in through its provider only.
  if (error instanceof AviaryApiError && error.code === 'PasswordSignInOff') return 'Your team signs in through its identity provider: use the single sign-on button.';
  return failureText(error);
}
