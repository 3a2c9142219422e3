import { useCallback, useEffect, useState } from 'react';
import { failureText, sessionApi, UNREACHABLE } from '../api/client';
import { PublicPage } from './PublicPage';
import { isPublicRoute, navigate, useRoute } from './route';
import type { Session } from './session';
import { SignIn } from './SignIn';
import { Workspace } from './Workspace';

/** Who is signed in decides the screen: the sign-in form, or the workspace of their team. */
export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [failure, setFailure] = useState<string>();
  const route = useRoute();

  useEffect(() => {
    sessionApi.getSession().then(
      (answer) => setSession(answer.user === null ? null : answer),
      (error: unknown) => setFailure(failureText(error)),
    );
  }, []);

  useEffect(() => {
    if (isPublicRoute(route)) return;
    if (session === null && route.page !== 'signin') navigate('/signin', true);
    if (session && route.page === 'signin') navigate('/', true);
  }, [session, route]);

  const signedIn = useCallback((next: Session) => setSession(next), []);
  // A change is made to the session as it is when React applies it: two in one tick both stay.
  const changeSession = useCallback((change: (current: Session) => Session) => setSession((current) => (current ? change(current) : current)), []);
  const signOut = useCallback(async () => {
    await sessionApi.signOut();
    setSession(null);
  }, []);

  if (failure) return <p className="page-message" role="alert">{failure === UNREACHABLE ? failure : `Aviary could not be reached: ${failure}`}</p>;
  if (isPublicRoute(route)) return <PublicPage route={route} onSignedIn={signedIn} />;
  if (session === undefined) return <p className="page-message" role="status">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={signedIn} />;
  return <Workspace session={session} route={route} onSignOut={signOut} onSessionChange={changeSession} />;
}
