import {
  clientRoutes,
  createRouteClient,
  sessionRoutes,
  type FetchFunction,
  type RouteClient,
  type RouteClientOptions,
  type RouteParamsOf,
  type RouteResultOf,
} from '@aviary/protocol';

export interface SessionApiOptions {
  /** The server's base URL, e.g. http://localhost:8080; '' (the default) in a browser on the server's own pages. */
  baseUrl?: string;
  /**
   * How calls carry the person's session: `bearer` (the default) sends `sessionToken` as
   * `Authorization: Bearer`, and signing in keeps the new one; `cookie` lets a browser send the session
   * cookie that signing in sets (scripts cannot read it).
   */
  session?: 'bearer' | 'cookie';
  /** A session token from an earlier sign-in (bearer mode). */
  sessionToken?: string;
  fetch?: FetchFunction;
}

/** Signing in and out, and the session every call of a people's API carries. */
abstract class SessionApi {
  /** The session token calls send in bearer mode; set by signIn, cleared by signOut. */
  sessionToken: string | undefined;
  protected readonly routeOptions: RouteClientOptions;
  private readonly sessions: RouteClient<typeof sessionRoutes>;

  constructor(options: SessionApiOptions) {
    this.sessionToken = options.sessionToken;
    const cookie = options.session === 'cookie';
    this.routeOptions = {
      baseUrl: options.baseUrl,
      fetch: options.fetch,
      headers: (): Record<string, string> => (!cookie && this.sessionToken !== undefined ? { authorization: `Bearer ${this.sessionToken}` } : {}),
      ...(cookie ? { credentials: 'include' as const } : {}),
    };
    this.sessions = createRouteClient(sessionRoutes, this.routeOptions);
  }

  /** Signs the person in; in bearer mode later calls carry the new session token. */
  async signIn(params: RouteParamsOf<typeof sessionRoutes.signIn>): Promise<RouteResultOf<typeof sessionRoutes.signIn>> {
    const answer = await this.sessions.signIn(params);
    this.sessionToken = answer.sessionToken;
    return answer;
  }

  /** Ends the session (and clears the cookie); later calls answer NotSignedIn until the next sign-in. */
  async signOut(): Promise<void> {
    await this.sessions.signOut();
    this.sessionToken = undefined;
  }
}

export interface AviaryPeopleApi extends RouteClient<typeof clientRoutes> {}

/**
 * The client API for a person's client, typed from its definitions in @aviary/protocol:
 * `await people.signIn({ email, password }); await people.sendMessage({ to, text })`. Failures throw
 * AviaryApiError (code, status, parameter).
 */
export class AviaryPeopleApi extends SessionApi {
  constructor(options: SessionApiOptions = {}) {
    super(options);
    Object.assign(this, createRouteClient(clientRoutes, this.routeOptions));
  }
}
