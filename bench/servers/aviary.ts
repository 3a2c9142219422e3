// Aviary as the benchmark runs it: SQLite in the given data dir (or DATABASE_URL, and REDIS_URL, from the
// environment), rate limits out of the way, loopback listeners allowed.
import { loadConfig } from '../../packages/server/src/config.js';
import { startServer } from '../../packages/server/src/server.js';

const unlimited = { rate: 1e9, burst: 1e9 };
const server = await startServer(
  loadConfig({
    dataDir: process.argv[2],
    port: 0,
    host: '127.0.0.1',
    logLevel: 'warn',
    rateLimits: { message: unlimited, messagePerRecipient: unlimited, read: unlimited, channel: unlimited },
    // The bench's listener apps run on loopback.
    allowedInternalHosts: ['127.0.0.0/8', '::1', 'localhost'],
  }),
);
process.stdout.write(`listening on ${server.url}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
