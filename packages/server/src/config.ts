import { resolve } from 'node:path';
import { oidcFromEnv, type OidcProviderConfig } from './config/oidc.js';
import { filesConfig, type FilesConfig } from './config/files.js';
import { trustedProxies } from './config/trustProxy.js';

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
  /** Posts to one incoming webhook's URL, whoever sends them. */
  webhook: RateRule;
  /** Failed sign-ins (POST /api/session) per (email, client address); while it is empty, that email cannot sign in from there. */
  signInFailures: RateRule;
  /** Failed sign-ins per client address, whatever the email. */
  signInFailuresPerAddress: RateRule;
  /**
   * Sign-ins that open a session, per (email, client address) or per known device: each costs a password
   * check and makes a session, so one person's right password cannot be replayed in a loop.
   */
  signIns: RateRule;
}

/** The real-time stream (docs/reference/stream.md). */
export interface StreamConfig {
  /** How often each connection is pinged; a peer that has not answered the previous ping is cut off. Env `AVIARY_STREAM_HEARTBEAT_MS`. */
  heartbeatMs: number;
  /** A connection whose unsent frames pass this many bytes is closed with a resync hint (a slow consumer). Env `AVIARY_STREAM_MAX_BUFFERED_BYTES`. */
  maxBufferedBytes: number;
  /** A client further behind than this many team stream entries gets `resync` instead of a replay. */
  maxReplayEntries: number;
  /** How long stream entries are kept for replay. Env `AVIARY_STREAM_RETENTION_MS`. */
  retentionMs: number;
  /** How long a stream ticket (stream.createTicket) may wait to be used. */
  ticketLifetimeMs: number;
  /** Open streams per person, over all their devices and tabs; one more is refused with TooManyRequests. */
  maxConnectionsPerPerson: number;
  /**
   * How often a process looks for stream entries it was not told about (a notice lost between processes,
   * a change made by the CLI): the bus is only a prompt, the store is the truth.
   */
  catchUpMs: number;
  /** How often open streams are checked against their sessions: signing out or deactivation closes them. */
  sessionCheckMs: number;
  /**
   * With Redis, how often a process compares the streams it holds with the other processes' and sheds
   * some when it holds more than its share (api/stream/rebalance.ts). Env `AVIARY_STREAM_REBALANCE_MS`.
   */
  rebalanceMs: number;
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
  /**
   * How long a kept-alive connection may stay idle before the server closes it. Longer than the proxy's
   * own (nginx's upstream `keepalive_timeout`, 60 s in deploy/nginx/aviary.conf): the proxy must be the
   * one that closes, or a request it sends as the server closes meets a reset (502). Env `AVIARY_KEEP_ALIVE_TIMEOUT_MS`.
   */
  keepAliveTimeoutMs: number;
  /**
   * While draining, how long a kept-alive connection that is idle stays open, so that a request a proxy
   * is sending on it at that moment is answered (with `Connection: close`) instead of meeting a closed
   * socket. Env `AVIARY_DRAIN_IDLE_MS`; by default half the grace (shutdownGraceMs) behind a proxy
   * (trustProxy set), 0 without one.
   */
  drainIdleMs: number;
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
  stream: StreamConfig;
  /**
   * Redis, shared by every server process: with it, rate limits are counted there (one bucket for all
   * processes) and the processes hear each other through Redis pub/sub (src/bus/); without it, each
   * process counts in its own memory and is alone. Env `REDIS_URL` (redis:// or rediss://).
   */
  redisUrl?: string;
  /** What every key and channel this server uses in Redis starts with, so that deployments can share one. Env `AVIARY_REDIS_KEY_PREFIX`. */
  redisKeyPrefix: string;
  /**
   * The keys that seal app secrets at rest, each 32 bytes in base64; the first seals, all open (a rotation
   * lists the new key first). Env `AVIARY_SECRET_KEY`, comma-separated. Empty: the store's key is
   * generated into the data directory (`secret.key`, 0600). Several processes must share the keys.
   */
  secretKeys: string[];
  /** When set, `GET /metrics` wants `Authorization: Bearer <this>`. Env `AVIARY_METRICS_TOKEN`. */
  metricsToken?: string;
  /**
   * Check every handler's result against the schema its method or route promises, answering 500 when
   * one does not match. On in tests, off by default. Env `AVIARY_CHECK_RESULTS=1`.
   */
  checkResults: boolean;
  /**
   * Mail through SMTP (invitations, password resets, email verification), sent by nodemailer after the
   * change commits, retried a few times. Env `AVIARY_SMTP_URL` (smtp:// or smtps://, user and password in
   * the URL). Unset: no mail is sent; invite links are copied by hand and passwords reset by an admin.
   */
  smtpUrl?: string;
  /** The From of that mail. Env `AVIARY_MAIL_FROM`; by default `Aviary <aviary@` the public URL's host `>`. */
  mailFrom: string;
  /** How many days audit log rows are kept before the retention job deletes them. Env `AVIARY_AUDIT_RETENTION_DAYS`; a year by default. */
  auditRetentionDays: number;
  /** The OpenID Connect provider of the environment (AVIARY_OIDC_*; config/oidc.ts), for every team without its own. */
  oidc?: OidcProviderConfig;
  /** Uploaded files: limits, and where their bytes go (config/files.ts, docs/reference/files.md). */
  files: FilesConfig;
}

/** A setting whose value the server cannot use; the message names the setting (the environment variable). */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
  }
}

export const defaultRateLimits: RateLimitConfig = {
  message: { rate: 10, burst: 30 },
  messagePerRecipient: { rate: 1, burst: 10 },
  read: { rate: 50, burst: 100 },
  channel: { rate: 5, burst: 20 },
  webhook: { rate: 1, burst: 20 },
  signInFailures: { rate: 1 / 60, burst: 10 },
  signInFailuresPerAddress: { rate: 1 / 6, burst: 50 },
  signIns: { rate: 1 / 10, burst: 30 },
};

export const defaultStreamConfig: StreamConfig = {
  heartbeatMs: 30_000,
  maxBufferedBytes: 1024 * 1024,
  maxReplayEntries: 10_000,
  retentionMs: 7 * 24 * 60 * 60 * 1000,
  ticketLifetimeMs: 60_000,
  maxConnectionsPerPerson: 20,
  catchUpMs: 5_000,
  sessionCheckMs: 60_000,
  rebalanceMs: 30_000,
};

export interface ConfigInput extends Partial<Omit<Config, 'rateLimits' | 'stream' | 'files'>> {
  files?: Partial<FilesConfig>;
  rateLimits?: Partial<RateLimitConfig>;
  stream?: Partial<StreamConfig>;
}

/**
 * The one place that reads the environment; everything else receives a Config. A value it cannot use
 * throws ConfigError naming the variable, so that the server stops before it starts with a wrong limit.
 */
export function loadConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const number = (name: string): number | undefined => wholeNumber(env, name);
  const config = {
    dataDir: resolve(input.dataDir ?? env.AVIARY_DATA_DIR ?? './data'),
    databaseUrl: input.databaseUrl ?? (env.DATABASE_URL || undefined),
    port: input.port ?? number('PORT') ?? 8080,
    host: input.host ?? env.HOST ?? '127.0.0.1',
    requestTimeoutMs: input.requestTimeoutMs ?? number('AVIARY_REQUEST_TIMEOUT_MS') ?? 30_000,
    bodyLimitBytes: input.bodyLimitBytes ?? 1024 * 1024,
    shutdownGraceMs: input.shutdownGraceMs ?? number('AVIARY_SHUTDOWN_GRACE_MS') ?? 10_000,
    keepAliveTimeoutMs: input.keepAliveTimeoutMs ?? positive(env, 'AVIARY_KEEP_ALIVE_TIMEOUT_MS') ?? 75_000,
    drainIdleMs: input.drainIdleMs ?? number('AVIARY_DRAIN_IDLE_MS'),
    rateLimits: { ...defaultRateLimits, ...rateLimitsFromEnv(env), ...input.rateLimits },
    logLevel: input.logLevel ?? env.AVIARY_LOG_LEVEL ?? 'info',
    publicUrl: input.publicUrl ?? (env.AVIARY_PUBLIC_URL || undefined),
    installTimeoutMs: input.installTimeoutMs ?? number('AVIARY_INSTALL_TIMEOUT_MS') ?? 10_000,
    allowedInternalHosts: input.allowedInternalHosts ?? list(env.AVIARY_ALLOWED_INTERNAL_HOSTS),
    trustProxy: input.trustProxy ?? list(env.AVIARY_TRUST_PROXY),
    dnsServers: input.dnsServers,
    checkResults: input.checkResults ?? env.AVIARY_CHECK_RESULTS === '1',
    redisUrl: redisUrl(input.redisUrl ?? (env.REDIS_URL || undefined)),
    redisKeyPrefix: input.redisKeyPrefix ?? (env.AVIARY_REDIS_KEY_PREFIX || 'aviary:'),
    metricsToken: input.metricsToken ?? (env.AVIARY_METRICS_TOKEN || undefined),
    secretKeys: secretKeys(input.secretKeys ?? list(env.AVIARY_SECRET_KEY)),
    smtpUrl: smtpUrl(input.smtpUrl ?? (env.AVIARY_SMTP_URL || undefined)),
    oidc: input.oidc ?? oidcFromEnv(env, (setting, message) => new ConfigError(setting, message)),
    auditRetentionDays: input.auditRetentionDays ?? positive(env, 'AVIARY_AUDIT_RETENTION_DAYS') ?? 365,
    mailFrom: input.mailFrom ?? (env.AVIARY_MAIL_FROM || defaultMailFrom(input.publicUrl ?? (env.AVIARY_PUBLIC_URL || undefined))),
    files: filesConfig(env, input.files ?? {}, (setting, message) => new ConfigError(setting, message)),
    stream: {
      ...defaultStreamConfig,
      heartbeatMs: positive(env, 'AVIARY_STREAM_HEARTBEAT_MS') ?? defaultStreamConfig.heartbeatMs,
      maxBufferedBytes: positive(env, 'AVIARY_STREAM_MAX_BUFFERED_BYTES') ?? defaultStreamConfig.maxBufferedBytes,
      retentionMs: positive(env, 'AVIARY_STREAM_RETENTION_MS') ?? defaultStreamConfig.retentionMs,
      rebalanceMs: positive(env, 'AVIARY_STREAM_REBALANCE_MS') ?? defaultStreamConfig.rebalanceMs,
      ...input.stream,
    },
  };
  checkStartSettings(config);
  if (config.smtpUrl !== undefined && config.publicUrl === undefined) {
    throw new ConfigError('AVIARY_SMTP_URL', 'mailed links point at the server’s public URL: set AVIARY_PUBLIC_URL too (such as https://chat.example.com).');
  }
  // Behind a proxy, idle connections are the proxy's pool: kept for half the drain, since closing one
  // races a request the proxy may be sending on it; not for all of it, since a request that arrived on
  // one just before the grace ends would be cut off in flight when every connection is closed.
  // Without a proxy, nothing is lost by closing them at once.
  return { ...config, drainIdleMs: config.drainIdleMs ?? (config.trustProxy.length > 0 ? Math.floor(config.shutdownGraceMs / 2) : 0) };
}

/** The environment variable of each bucket: AVIARY_RATE_LIMIT_ and the bucket's name in capitals (MESSAGE_PER_RECIPIENT). */
export const rateLimitVariables = Object.fromEntries(
  Object.keys(defaultRateLimits).map((bucket) => [bucket, `AVIARY_RATE_LIMIT_${bucket.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`]),
) as Record<keyof RateLimitConfig, string>;

const RATE_LIMIT_PREFIX = 'AVIARY_RATE_LIMIT_';
const SECONDS_PER_UNIT: Record<string, number> = { s: 1, min: 60, h: 3600 };
/** No rule needs more: past it a number is a typo, and an unbounded one would only mean "unlimited" badly. */
const MAX_RATE_NUMBER = 1e9;
const RATE_RULE = /^(?:(\d+(?:\.\d+)?)\/(s|min|h))?\s*(?:burst\s+(\d+))?$/;

/**
 * Rules from `AVIARY_RATE_LIMIT_<BUCKET>="<calls>/<s|min|h> burst <calls>"`, e.g. `10/s burst 30` or
 * `1/min burst 10`; either half may be left out and keeps the default. A variable with the prefix that
 * names no bucket is refused too: a misspelt name must not leave the default in place unnoticed.
 */
function rateLimitsFromEnv(env: NodeJS.ProcessEnv): Partial<RateLimitConfig> {
  const buckets = Object.entries(rateLimitVariables) as Array<[keyof RateLimitConfig, string]>;
  for (const name of Object.keys(env)) {
    if (name.startsWith(RATE_LIMIT_PREFIX) && !buckets.some(([, variable]) => variable === name)) {
      throw new ConfigError(name, `names no rate limit; the rate-limit variables are ${buckets.map(([, variable]) => variable).join(', ')}.`);
    }
  }
  const rules: Partial<RateLimitConfig> = {};
  for (const [bucket, variable] of buckets) {
    const value = env[variable];
    if (value !== undefined && value.trim() !== '') rules[bucket] = rateRule(variable, value.trim(), defaultRateLimits[bucket]);
  }
  return rules;
}

function rateRule(variable: string, value: string, fallback: RateRule): RateRule {
  const match = RATE_RULE.exec(value);
  const shape = `expected "<calls>/<s|min|h> burst <calls>" such as "10/s burst 30" (either half may be left out); got "${value.slice(0, 100)}".`;
  if (!match || (match[1] === undefined && match[3] === undefined)) throw new ConfigError(variable, shape);
  const rate = match[1] === undefined ? fallback.rate : Number(match[1]) / SECONDS_PER_UNIT[match[2]];
  const burst = match[3] === undefined ? fallback.burst : Number(match[3]);
  if (!(rate > 0) || Number(match[1] ?? 1) > MAX_RATE_NUMBER) throw new ConfigError(variable, `the rate must be more than 0 and at most ${MAX_RATE_NUMBER} calls; ${shape}`);
  if (burst < 1 || burst > MAX_RATE_NUMBER) throw new ConfigError(variable, `the burst must be a whole number from 1 to ${MAX_RATE_NUMBER}; ${shape}`);
  return { rate, burst };
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value.trim())) throw new ConfigError(name, `expected a whole number; got "${value.slice(0, 100)}".`);
  return Number(value.trim());
}

/** A whole number above 0: a heartbeat, buffer or retention of 0 would stop the stream from working at all. */
function positive(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = wholeNumber(env, name);
  if (value === 0) throw new ConfigError(name, 'expected a whole number above 0.');
  return value;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Settings read as they are, checked here so that a wrong one stops the server at start, named. */
function checkStartSettings(config: Pick<Config, 'port' | 'logLevel' | 'publicUrl' | 'databaseUrl' | 'trustProxy'>): void {
  if (config.port > 65_535) throw new ConfigError('PORT', `expected a port from 0 to 65535; got ${config.port}.`);
  if (!LOG_LEVELS.includes(config.logLevel)) throw new ConfigError('AVIARY_LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}; got "${config.logLevel.slice(0, 100)}".`);
  if (config.publicUrl !== undefined && !['http:', 'https:'].includes(urlProtocol(config.publicUrl) ?? '')) {
    throw new ConfigError('AVIARY_PUBLIC_URL', `expected the address people open, with http:// or https://, such as https://chat.example.com; got "${config.publicUrl.slice(0, 200)}".`);
  }
  if (config.databaseUrl !== undefined && !['postgres:', 'postgresql:'].includes(urlProtocol(config.databaseUrl) ?? '')) {
    // Not echoed: a database URL may carry a password.
    throw new ConfigError('DATABASE_URL', 'expected a PostgreSQL URL, postgres:// or postgresql:// (such as postgres://aviary@127.0.0.1:5432/aviary); leave it unset for SQLite.');
  }
  try {
    trustedProxies(config.trustProxy);
  } catch (error) {
    throw new ConfigError('AVIARY_TRUST_PROXY', (error as Error).message);
  }
}

function urlProtocol(value: string): string | undefined {
  try {
    return new URL(value).protocol;
  } catch {
    return undefined;
  }
}

function redisUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // Not echoed: a Redis URL may carry a password.
  if (!['redis:', 'rediss:'].includes(urlProtocol(value) ?? '')) throw new ConfigError('REDIS_URL', 'expected a redis:// or rediss:// URL, such as redis://127.0.0.1:6379.');
  return value;
}

function smtpUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // Not echoed: an SMTP URL may carry a password.
  if (!['smtp:', 'smtps:'].includes(urlProtocol(value) ?? '')) throw new ConfigError('AVIARY_SMTP_URL', 'expected an smtp:// or smtps:// URL, such as smtps://user:password@mail.example.com:465.');
  return value;
}

function defaultMailFrom(publicUrl: string | undefined): string {
  let host = 'localhost';
  try {
    if (publicUrl !== undefined) host = new URL(publicUrl).hostname;
  } catch {
    // The public URL's own check reports it.
  }
  return `Aviary <aviary@${host}>`;
}

/** A key of AVIARY_SECRET_KEY as written: base64 of 32 bytes, or why it is not. */
export function secretKeyProblem(written: string): string | undefined {
  const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(written) ? Buffer.from(written, 'base64').length : 0;
  return bytes === 32 ? undefined : `a key is 32 random bytes in base64, such as the output of \`openssl rand -base64 32\`; got ${bytes === 0 ? 'no base64' : `${bytes} bytes`}`;
}

function secretKeys(keys: string[]): string[] {
  for (const [index, key] of keys.entries()) {
    const problem = secretKeyProblem(key);
    // Never echo the value: it is a key.
    if (problem) throw new ConfigError('AVIARY_SECRET_KEY', `key ${index + 1} of ${keys.length}: ${problem}.`);
  }
  return keys;
}

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter((item) => item !== '');
}
