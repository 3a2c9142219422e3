import { createRouteClient, sessionRoutes, type FetchFunction, type RouteParamsOf, type RouteResultOf } from '@aviary/protocol';

export interface SessionOptions {
  /** The server's base URL, e.g. http://localhost:8080 */
  baseUrl: string;
  fetch?: FetchFunction;
}

/** What signing in answers: the session token (`as_s_…`) to give `AviaryClient` as its `token`, the person and their team. */
export type SignedIn = RouteResultOf<typeof sessionRoutes.signIn>;

/**
 * Signs a person in (POST /api/session) and answers their session: `new AviaryClient({ baseUrl, token:
 * (await signIn({ baseUrl, email, password })).sessionToken })` then calls every method a person may call.
 * Failures throw AviaryApiError (InvalidCredentials, TeamRequired with the teams to choose from).
 */
export async function signIn(options: SessionOptions & RouteParamsOf<typeof sessionRoutes.signIn>): Promise<SignedIn> {
  const { baseUrl, fetch, ...credentials } = options;
  return createRouteClient(sessionRoutes, { baseUrl, fetch }).signIn(credentials);
}

/** Ends the session (DELETE /api/session): its token answers NotSignedIn from then on. */
export async function signOut(options: SessionOptions & { sessionToken: string }): Promise<void> {
  const headers = () => ({ authorization: `Bearer ${options.sessionToken}` });
  await createRouteClient(sessionRoutes, { baseUrl: options.baseUrl, fetch: options.fetch, headers }).signOut();
}
