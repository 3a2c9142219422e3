import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { fetch as undiciFetch, type Dispatcher } from 'undici';
import type { OidcProviderConfig } from '../../config/oidc.js';

/** How long discovering a provider may take before the sign-in is refused as unreachable. */
const DISCOVERY_TIMEOUT_S = 10;

/**
 * A provider's discovered configuration, kept per (issuer, client id, secret) so that a sign-in costs no
 * discovery round trip; a failed discovery is forgotten, so the next sign-in tries again.
 */
const discovered = new Map<string, Promise<oidc.Configuration>>();

/**
 * `guard`: the agent that refuses internal addresses (net/guardedAgent.ts), for a provider a team admin
 * typed in: its discovery, token and userinfo requests are then as limited as a listener call. The
 * environment's provider, set by the operator, is reached directly.
 */
export function providerConfiguration(provider: OidcProviderConfig, guard?: Dispatcher): Promise<oidc.Configuration> {
  const key = createHash('sha256').update(JSON.stringify([provider.issuer, provider.clientId, provider.clientSecret, guard !== undefined])).digest('hex');
  let configuration = discovered.get(key);
  if (!configuration) {
    // http:// is accepted for a provider on loopback only (config/oidc.ts issuerProblem).
    const insecure = new URL(provider.issuer).protocol === 'http:';
    const fetchThrough = guard ? guardedFetch(guard) : undefined;
    configuration = oidc
      .discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, undefined, {
        timeout: DISCOVERY_TIMEOUT_S,
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        ...(fetchThrough ? { [oidc.customFetch]: fetchThrough } : {}),
      })
      .then((found) => {
        if (fetchThrough) found[oidc.customFetch] = fetchThrough;
        return found;
      });
    configuration.catch(() => discovered.delete(key));
    discovered.set(key, configuration);
  }
  return configuration;
}

const guardedFetch =
  (guard: Dispatcher): oidc.CustomFetch =>
  (url, options) =>
    undiciFetch(url, { ...options, dispatcher: guard } as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>;

/** What an attempt keeps to finish: the state, nonce and PKCE verifier it sent the browser off with. */
export interface AttemptSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export function newAttemptSecrets(): AttemptSecrets {
  return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
}

/** Where the browser goes to sign in at the provider: authorization code with PKCE (S256), a state and a nonce. */
export async function authorizationUrl(configuration: oidc.Configuration, redirectUri: string, secrets: AttemptSecrets): Promise<URL> {
  return oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(secrets.codeVerifier),
    code_challenge_method: 'S256',
    state: secrets.state,
    nonce: secrets.nonce,
  });
}

/** Who the provider says signed in: from the ID token, whose signature, issuer, audience and nonce openid-client checked. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  givenName: string | undefined;
  familyName: string | undefined;
  name: string | undefined;
}

/** Exchanges the code of the callback URL for tokens; throws when anything about it does not check out. */
export async function redeemCallback(configuration: oidc.Configuration, callbackUrl: URL, secrets: AttemptSecrets): Promise<ProviderIdentity> {
  const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
    pkceCodeVerifier: secrets.codeVerifier,
    expectedState: secrets.state,
    expectedNonce: secrets.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('the provider answered no ID token');
  // Providers that keep the ID token small (as the specification has it for scope-requested claims)
  // give the email at the userinfo endpoint, for the ID token's subject only.
  const claims = typeof idClaims.email === 'string' ? idClaims : { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub)), iss: idClaims.iss, sub: idClaims.sub };
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: text(claims.email)?.toLowerCase(),
    emailVerified: claims.email_verified === true,
    givenName: text(claims.given_name),
    familyName: text(claims.family_name),
    name: text(claims.name),
  };
}
