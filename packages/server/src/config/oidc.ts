/**
 * The OpenID Connect provider of the environment (AVIARY_OIDC_*), read by `loadConfig` only: every team
 * without a provider of its own signs in through it (docs/reference/configuration.md "Single sign-on").
 */
export interface OidcProviderConfig {
  /** The issuer URL; its `/.well-known/openid-configuration` describes the rest. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Lower-case email domains whose people may sign in; empty: any domain. */
  allowedDomains: string[];
  /** Whether a first sign-in with no account yet creates one (as a member). */
  createAccounts: boolean;
}

type Refuse = (setting: string, message: string) => Error;

/** The provider the environment names, undefined when AVIARY_OIDC_ISSUER is unset; a half-configured one is refused. */
export function oidcFromEnv(env: NodeJS.ProcessEnv, refuse: Refuse): OidcProviderConfig | undefined {
  const issuer = env.AVIARY_OIDC_ISSUER?.trim();
  if (!issuer) return undefined;
  const problem = issuerProblem(issuer);
  if (problem) throw refuse('AVIARY_OIDC_ISSUER', problem);
  const clientId = env.AVIARY_OIDC_CLIENT_ID?.trim();
  if (!clientId) throw refuse('AVIARY_OIDC_CLIENT_ID', 'single sign-on needs the client id the provider gave Aviary.');
  const clientSecret = env.AVIARY_OIDC_CLIENT_SECRET;
  if (!clientSecret) throw refuse('AVIARY_OIDC_CLIENT_SECRET', 'single sign-on needs the client secret the provider gave Aviary.');
  const allowedDomains = emailDomains(env.AVIARY_OIDC_ALLOWED_DOMAINS ?? '');
  if (typeof allowedDomains === 'string') throw refuse('AVIARY_OIDC_ALLOWED_DOMAINS', allowedDomains);
  const create = (env.AVIARY_OIDC_CREATE_ACCOUNTS ?? 'no').trim().toLowerCase();
  if (!['yes', 'no', '1', '0', 'true', 'false'].includes(create)) throw refuse('AVIARY_OIDC_CREATE_ACCOUNTS', 'expected yes or no.');
  return { issuer, clientId, clientSecret, allowedDomains, createAccounts: ['yes', '1', 'true'].includes(create) };
}

/**
 * What is wrong with an issuer URL, or undefined: https, or http on a loopback host only (a provider on
 * the same machine, as in tests), without credentials, query or fragment.
 */
export function issuerProblem(issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'expected the provider’s issuer URL, such as https://login.example.com/realms/acme.';
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return 'the issuer must be an https:// URL (http:// only on 127.0.0.1 or localhost).';
  if (url.username || url.password || url.search || url.hash) return 'the issuer URL may not carry credentials, a query or a fragment.';
  return undefined;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Comma- or space-separated email domains, lower-cased; a description of the first bad one instead. */
export function emailDomains(value: string | readonly string[]): string[] | string {
  const given = typeof value === 'string' ? value.split(/[\s,]+/) : value;
  const domains = given.map((domain) => domain.trim().toLowerCase().replace(/^@/, '')).filter((domain) => domain !== '');
  const bad = domains.find((domain) => !DOMAIN.test(domain));
  if (bad !== undefined) return `"${bad.slice(0, 100)}" is not an email domain such as example.com.`;
  return [...new Set(domains)];
}
