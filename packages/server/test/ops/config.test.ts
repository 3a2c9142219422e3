import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, defaultRateLimits, loadConfig, rateLimitVariables } from '../../src/config.js';
import { runCli } from '../cli/cli.js';
import { teamWithApp } from '../helpers/factories.js';
import { startTestServer, stopTestServer } from '../helpers/server.js';

const fromEnv = (env: Record<string, string>) => loadConfig({ dataDir: '/tmp' }, env);

/** The ConfigError loadConfig throws for `env`. */
function refusal(env: Record<string, string>): ConfigError {
  try {
    fromEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
}

describe('rate limits from the environment', () => {
  it('has one variable per bucket, each in docs/operations.md', () => {
    expect(rateLimitVariables).toEqual({
      message: 'AVIARY_RATE_LIMIT_MESSAGE',
      messagePerRecipient: 'AVIARY_RATE_LIMIT_MESSAGE_PER_RECIPIENT',
      read: 'AVIARY_RATE_LIMIT_READ',
      channel: 'AVIARY_RATE_LIMIT_CHANNEL',
      webhook: 'AVIARY_RATE_LIMIT_WEBHOOK',
      signInFailures: 'AVIARY_RATE_LIMIT_SIGN_IN_FAILURES',
      signInFailuresPerAddress: 'AVIARY_RATE_LIMIT_SIGN_IN_FAILURES_PER_ADDRESS',
      signIns: 'AVIARY_RATE_LIMIT_SIGN_INS',
    });
    const doc = readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
    for (const variable of Object.values(rateLimitVariables)) expect(doc).toContain(`\`${variable}\``);
  });

  it('reads "<calls>/<s|min|h> burst <calls>", either half alone keeping the default of the other', () => {
    const { rateLimits } = fromEnv({
      AVIARY_RATE_LIMIT_MESSAGE: '20/s burst 40',
      AVIARY_RATE_LIMIT_MESSAGE_PER_RECIPIENT: 'burst 12',
      AVIARY_RATE_LIMIT_READ: ' 100/s ',
      AVIARY_RATE_LIMIT_CHANNEL: '3600/h burst 5',
      AVIARY_RATE_LIMIT_SIGN_IN_FAILURES: '2/min burst 5',
      AVIARY_RATE_LIMIT_SIGN_IN_FAILURES_PER_ADDRESS: '0.5/s',
      AVIARY_RATE_LIMIT_SIGN_INS: '12/h burst 3',
    });
    expect(rateLimits).toEqual({
      message: { rate: 20, burst: 40 },
      messagePerRecipient: { rate: defaultRateLimits.messagePerRecipient.rate, burst: 12 },
      read: { rate: 100, burst: defaultRateLimits.read.burst },
      channel: { rate: 1, burst: 5 },
      webhook: defaultRateLimits.webhook,
      signInFailures: { rate: 2 / 60, burst: 5 },
      signInFailuresPerAddress: { rate: 0.5, burst: defaultRateLimits.signInFailuresPerAddress.burst },
      signIns: { rate: 12 / 3600, burst: 3 },
    });
  });

  it('keeps the defaults without the variables (or with empty ones), and settings given in code win', () => {
    expect(fromEnv({ AVIARY_RATE_LIMIT_READ: '' }).rateLimits).toEqual(defaultRateLimits);
    const config = loadConfig({ dataDir: '/tmp', rateLimits: { read: { rate: 7, burst: 7 } } }, { AVIARY_RATE_LIMIT_READ: '1/s burst 1' });
    expect(config.rateLimits.read).toEqual({ rate: 7, burst: 7 });
  });

  it.each([
    ['fast', /expected "<calls>\/<s\|min\|h> burst <calls>"/],
    ['10/day', /expected/],
    ['10 per second', /expected/],
    ['-1/s', /expected/],
    ['10/s burst 2.5', /expected/],
    ['0/s', /the rate must be more than 0/],
    ['10/s burst 0', /the burst must be a whole number from 1/],
    ['99999999999/s', /at most 1000000000/],
  ])('refuses %j, naming the variable', (value, why) => {
    const error = refusal({ AVIARY_RATE_LIMIT_MESSAGE: value });
    expect(error.setting).toBe('AVIARY_RATE_LIMIT_MESSAGE');
    expect(error.message).toMatch(/^AVIARY_RATE_LIMIT_MESSAGE: /);
    expect(error.message).toMatch(why);
  });

  it('refuses a variable with the prefix that names no bucket, listing the ones there are', () => {
    const error = refusal({ AVIARY_RATE_LIMIT_MESAGE: '1/s' });
    expect(error.setting).toBe('AVIARY_RATE_LIMIT_MESAGE');
    expect(error.message).toContain('AVIARY_RATE_LIMIT_MESSAGE_PER_RECIPIENT');
  });

  it('applies to a running server', async () => {
    const t = await startTestServer('sqlite', { rateLimits: fromEnv({ AVIARY_RATE_LIMIT_READ: '1/h burst 2' }).rateLimits });
    try {
      const { people } = await teamWithApp(t.testStore.store.db, 1);
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await t.call('users.getInfo', { query: { token: people[0].token } })).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await stopTestServer(t);
    }
  });
});

describe('other settings from the environment', () => {
  it('reads REDIS_URL, AVIARY_REDIS_KEY_PREFIX and AVIARY_METRICS_TOKEN', () => {
    expect(fromEnv({})).toMatchObject({ redisUrl: undefined, redisKeyPrefix: 'aviary:', metricsToken: undefined });
    const config = fromEnv({ REDIS_URL: 'rediss://:pw@redis.internal:6380/2', AVIARY_REDIS_KEY_PREFIX: 'chat:', AVIARY_METRICS_TOKEN: 'scrape-me' });
    expect(config).toMatchObject({ redisUrl: 'rediss://:pw@redis.internal:6380/2', redisKeyPrefix: 'chat:', metricsToken: 'scrape-me' });
  });

  it('refuses a REDIS_URL that is not a redis:// URL without repeating it (it may hold a password)', () => {
    for (const value of ['redis.internal:6379', 'http://:secret@redis.internal', 'not a url']) {
      const error = refusal({ REDIS_URL: value });
      expect(error.setting).toBe('REDIS_URL');
      expect(error.message).not.toContain(value);
    }
  });

  it('refuses numbers that are not whole numbers', () => {
    expect(refusal({ PORT: 'eighty' }).setting).toBe('PORT');
    expect(refusal({ AVIARY_REQUEST_TIMEOUT_MS: '1.5' }).setting).toBe('AVIARY_REQUEST_TIMEOUT_MS');
    expect(fromEnv({ PORT: '8081' }).port).toBe(8081);
  });
});

describe('the CLI with a setting it cannot use', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'aviary-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('aviary serve stops before serving, naming the variable', async () => {
    const result = await runCli(['serve', '--port', '0', '--data', dataDir], { AVIARY_RATE_LIMIT_READ: 'lots' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^aviary: AVIARY_RATE_LIMIT_READ: expected/);
    expect(result.stdout).not.toContain('listening');
  });

  it('an admin command answers InvalidConfig', async () => {
    const result = await runCli(['team', 'create', '--name', 'Ops', '--data', dataDir, '--json'], { REDIS_URL: 'localhost' });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: 'InvalidConfig', description: expect.stringMatching(/^REDIS_URL: /) });
  });
});

describe('settings checked at start', () => {
  it('stops the server naming the variable: a port out of range, an unknown log level, a public URL or database URL that is none', () => {
    expect(refusal({ PORT: '99999' }).message).toBe('PORT: expected a port from 0 to 65535; got 99999.');
    expect(refusal({ AVIARY_LOG_LEVEL: 'verbose' }).message).toMatch(/^AVIARY_LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent; got "verbose"/);
    expect(refusal({ AVIARY_PUBLIC_URL: 'chat.example.org' }).message).toMatch(/^AVIARY_PUBLIC_URL: expected the address people open, with http:\/\/ or https:\/\//);
    const database = refusal({ DATABASE_URL: 'mysql://u:secret@127.0.0.1/x' }).message;
    expect(database).toMatch(/^DATABASE_URL: expected a PostgreSQL URL/);
    expect(database).not.toContain('secret');
    const fine = loadConfig({}, { PORT: '0', AVIARY_LOG_LEVEL: 'warn', AVIARY_PUBLIC_URL: 'https://chat.example.org', DATABASE_URL: 'postgresql://aviary@127.0.0.1/aviary' });
    expect([fine.port, fine.logLevel, fine.publicUrl, fine.databaseUrl]).toEqual([0, 'warn', 'https://chat.example.org', 'postgresql://aviary@127.0.0.1/aviary']);
  });
});
