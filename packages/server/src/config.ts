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
  /** How long a stream ticket (POST /api/client/stream/ticket) may wait to be used. */
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
  stream: StreamConfig;
}

export const defaultRateLimits: RateLimitConfig = {
  message: { rate: 10, burst: 30 },
  messagePerRecipient: { rate: 1, burst: 10 },
  read: { rate: 50, burst: 100 },
  channel: { rate: 5, burst: 20 },
  signInFailures: { rate: 1 / 60, burst: 10 },
  signInFailuresPerAddress: { rate: 1 / 6, burst: 50 },
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
};

export interface ConfigInput extends Partial<Omit<Config, 'rateLimits' | 'stream'>> {
  rateLimits?: Partial<RateLimitConfig>;
  stream?: Partial<StreamConfig>;
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
    stream: {
      ...defaultStreamConfig,
      heartbeatMs: number(env.AVIARY_STREAM_HEARTBEAT_MS) ?? defaultStreamConfig.heartbeatMs,
      maxBufferedBytes: number(env.AVIARY_STREAM_MAX_BUFFERED_BYTES) ?? defaultStreamConfig.maxBufferedBytes,
      retentionMs: number(env.AVIARY_STREAM_RETENTION_MS) ?? defaultStreamConfig.retentionMs,
      ...input.stream,
    },
  };
}

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter((item) => item !== '');
}
