import { resolve } from 'node:path';

export interface RateRule {
  /** Tokens added per second. */
  rate: number;
  /** Bucket size: how many calls may come at once. */
  burst: number;
}

export interface RateLimitConfig {
  message: RateRule;
  /** Per (token, recipient), on top of `message`. */
  messagePerRecipient: RateRule;
  read: RateRule;
  channel: RateRule;
  /** Failed sign-ins (POST /api/session) per (email, client address); while it is empty, that email cannot sign in from there. */
  signInFailures: RateRule;
  /** Failed sign-ins per client address, whatever the email. */
  signInFailuresPerAddress: RateRule;
}

export interface Config {
  dataDir: string;
  databaseUrl?: string;
  port: number;
  host: string;
  /** How long a client may take to send a complete request before it gets 408. */
  requestTimeoutMs: number;
  bodyLimitBytes: number;
  /** How long shutdown waits for in-flight requests before closing their connections. */
  shutdownGraceMs: number;
  rateLimits: RateLimitConfig;
  logLevel: string;
  /** Base URL the server is reached at, for links it hands out (widget URLs, /widget.js). */
  publicUrl?: string;
  /** How long an app's listener has to accept `app.install` with HTTP 200 before the install fails. */
  installTimeoutMs: number;
  /**
   * Hosts that requests to URLs people gave (listeners, …) may reach even though their addresses are
   * internal (loopback, private, link-local…): host names, IP addresses and CIDR ranges.
   * Env `AVIARY_ALLOWED_INTERNAL_HOSTS`, a comma list. Empty by default.
   */
  allowedInternalHosts: string[];
  /**
   * DNS servers (`address` or `address:port`) that resolve the host names of those requests instead of
   * the system's resolver. Not read from the environment: tests point it at a DNS server of their own.
   */
  dnsServers?: string[];
  /**
   * The reverse proxies whose `X-Forwarded-For` is believed (IP addresses or CIDR ranges). Without it the
   * client address is the connection's. Env `AVIARY_TRUST_PROXY`, a comma list.
   */
  trustProxy: string[];
  /**
   * Redis, shared by every server process: with it, the processes hear each other through Redis pub/sub
   * (src/bus/); without it, the server is one process. Env `REDIS_URL` (redis:// or rediss://).
   */
  redisUrl?: string;
  /** What every key and channel this server uses in Redis starts with, so that deployments can share one. Env `AVIARY_REDIS_KEY_PREFIX`. */
  redisKeyPrefix: string;
}

export const defaultRateLimits: RateLimitConfig = {
  message: { rate: 10, burst: 30 },
  messagePerRecipient: { rate: 1, burst: 10 },
  read: { rate: 50, burst: 100 },
  channel: { rate: 5, burst: 20 },
  signInFailures: { rate: 1 / 60, burst: 10 },
  signInFailuresPerAddress: { rate: 1 / 6, burst: 50 },
};

export interface ConfigInput extends Partial<Omit<Config, 'rateLimits'>> {
  rateLimits?: Partial<RateLimitConfig>;
}

/** The one place that reads the environment; everything else receives a Config. */
export function loadConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const number = (value: string | undefined): number | undefined => (value === undefined || value === '' ? undefined : Number(value));
  return {
    dataDir: resolve(input.dataDir ?? env.AVIARY_DATA_DIR ?? './data'),
    databaseUrl: input.databaseUrl ?? (env.DATABASE_URL || undefined),
    port: input.port ?? number(env.PORT) ?? 8080,
    host: input.host ?? env.HOST ?? '127.0.0.1',
    requestTimeoutMs: input.requestTimeoutMs ?? number(env.AVIARY_REQUEST_TIMEOUT_MS) ?? 30_000,
    bodyLimitBytes: input.bodyLimitBytes ?? 1024 * 1024,
    shutdownGraceMs: input.shutdownGraceMs ?? number(env.AVIARY_SHUTDOWN_GRACE_MS) ?? 10_000,
    rateLimits: { ...defaultRateLimits, ...input.rateLimits },
    logLevel: input.logLevel ?? env.AVIARY_LOG_LEVEL ?? 'info',
    publicUrl: input.publicUrl ?? (env.AVIARY_PUBLIC_URL || undefined),
    installTimeoutMs: input.installTimeoutMs ?? number(env.AVIARY_INSTALL_TIMEOUT_MS) ?? 10_000,
    allowedInternalHosts: input.allowedInternalHosts ?? list(env.AVIARY_ALLOWED_INTERNAL_HOSTS),
    trustProxy: input.trustProxy ?? list(env.AVIARY_TRUST_PROXY),
    dnsServers: input.dnsServers,
    redisUrl: input.redisUrl ?? (env.REDIS_URL || undefined),
    redisKeyPrefix: input.redisKeyPrefix ?? (env.AVIARY_REDIS_KEY_PREFIX || 'aviary:'),
  };
}

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter((item) => item !== '');
}
