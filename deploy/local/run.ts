// Starts the deployment of docs/deploy.md on this machine, on loopback, until Ctrl-C:
//   npx tsx deploy/local/run.ts --database-url postgres://… --redis-url redis://…/<db> [--processes 3] [--port N]
// Every port is a free one the kernel picks (nginx's too, unless --port names one). The Redis URL has
// no default: a shared Redis's db 0 is someone else's. Needs nginx (Debian: apt-get install nginx); it
// runs as you, in a temporary directory, not as a service.
import { parseArgs } from 'node:util';
import { startLocalDeployment } from './deployment.js';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string', default: process.env.DATABASE_URL },
    'redis-url': { type: 'string', default: process.env.REDIS_URL },
    processes: { type: 'string', default: '3' },
    port: { type: 'string' },
  },
});
const processes = Number(values.processes);
const port = values.port === undefined ? undefined : Number(values.port);
if (!values['database-url']?.startsWith('postgres')) fail('--database-url (or DATABASE_URL) must name the PostgreSQL database the processes share.');
if (!/^rediss?:\/\//.test(values['redis-url'] ?? '')) {
  fail('--redis-url (or REDIS_URL) must name the Redis the processes share, e.g. redis://127.0.0.1:6379/5: a database of yours, since another deployment may use db 0.');
}
if (!Number.isInteger(processes) || processes < 1 || processes > 32) fail('--processes must be a whole number from 1 to 32.');
if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65_536)) fail('--port must be a port number.');

const deployment = await startLocalDeployment({ processes, databaseUrl: values['database-url']!, redisUrl: values['redis-url']!, port });
console.log(`nginx on ${deployment.url}, in front of:`);
for (const server of deployment.processes) console.log(`  aviary serve on ${server.url} (pid ${server.child.pid})`);
console.log('Ctrl-C stops them all.');
const stop = () => void deployment.stop().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}
