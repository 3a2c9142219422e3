import { afterAll, beforeAll } from 'vitest';
import { loadConfig, type ConfigInput } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { redisTestUrl, uniqueRedisPrefix } from '../helpers/redis.js';
import { createTestStore, type TestStore } from '../helpers/store.js';

/**
 * Two servers in this process on one PostgreSQL store, hearing each other only through Redis (keys and
 * channels under a prefix of their own), as two processes of a deployment would: started before the
 * file's tests, and closed after them, once `closeFirst` (the file's streams) has run. `more` is any
 * other configuration both take (rate limits).
 */
export function twoServersOnOneRedis(stream: ConfigInput['stream'], closeFirst: () => Promise<unknown>, more: ConfigInput = {}) {
  const started = { servers: [] as RunningServer[], testStore: undefined as unknown as TestStore };
  beforeAll(async () => {
    started.testStore = await createTestStore('postgres');
    const config = loadConfig(
      { ...more, port: 0, dataDir: started.testStore.dataDir, logLevel: 'silent', redisUrl: redisTestUrl, redisKeyPrefix: uniqueRedisPrefix(), stream },
      {},
    );
    for (let i = 0; i < 2; i++) started.servers.push(await startServer(config, { store: started.testStore.reopen(), migrate: false }));
  });
  afterAll(async () => {
    await closeFirst();
    for (const server of started.servers.splice(0)) await server.close();
    await started.testStore?.destroy();
  });
  return started;
}
