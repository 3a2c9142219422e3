import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { composeNginxConfig, composeNginxFile } from '../../../../deploy/docker/nginx.js';
import { listeningUrl } from '../../../../deploy/local/deployment.js';
import { repoRoot } from '../cli/cli.js';

const entrypoint = join(repoRoot, 'deploy/docker/entrypoint.sh');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The image's entrypoint, run by sh against this repository's build (AVIARY_APP_DIR) with an environment
 * of its own. `untilListening` sends SIGTERM to the script's process once the server logs where it listens.
 */
function runEntrypoint(args: string[], env: Record<string, string>, untilListening = false): Promise<Run> {
  const { DATABASE_URL: _url, AVIARY_DATA_DIR: _dir, PORT: _port, HOST: _host, ...inherited } = process.env;
  const child = spawn('sh', [entrypoint, ...args], { env: { ...inherited, AVIARY_APP_DIR: repoRoot, AVIARY_LOG_LEVEL: 'warn', ...env } });
  let stdout = '';
  let stderr = '';
  let signalled = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    // Once: a second SIGTERM is not a drain but the end (the server listens for the first only).
    if (untilListening && !signalled && listeningUrl(stdout)) signalled = child.kill('SIGTERM');
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

describe('the image entrypoint (deploy/docker/entrypoint.sh)', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'aviary-entrypoint-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('serves by default, and SIGTERM reaches the server through it: it drains and exits 0', async () => {
    const run = await runEntrypoint([], { AVIARY_DATA_DIR: join(scratch, 'data'), HOST: '127.0.0.1', PORT: '0' }, true);
    expect(run.code, run.stderr).toBe(0);
    const messages = run.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toEqual(expect.arrayContaining([expect.stringMatching(/^listening on http:\/\/127\.0\.0\.1:\d+$/), 'SIGTERM received, finishing in-flight requests', 'stopped']));
  });

  it('takes options alone as options of serve, and any other command as it is', async () => {
    const help = await runEntrypoint(['--help'], { AVIARY_DATA_DIR: join(scratch, 'help') });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: aviary serve');
    const migrated = await runEntrypoint(['migrate', '--json'], { AVIARY_DATA_DIR: join(scratch, 'migrated') });
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(JSON.parse(migrated.stdout)).toMatchObject({ schema: expect.any(String) });
  });

  it('refuses to serve on a data directory it cannot write, saying what to do', async () => {
    // A path under a regular file: no user, root included, can make it a directory.
    writeFileSync(join(scratch, 'a-file'), '');
    const run = await runEntrypoint(['serve'], { AVIARY_DATA_DIR: join(scratch, 'a-file', 'data') });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^aviary: AVIARY_DATA_DIR \(.*a-file\/data\) cannot be written by uid \d+: mount a volume that user owns, or set DATABASE_URL/);
    expect(run.stdout).toBe('');
  });
});

/** docs/deploy.md's table of compose.yaml: each row's services, image, ports and variables. */
function documentedServices(): Map<string, { image: string; ports: string[]; variables: string[] }> {
  const doc = readFileSync(join(repoRoot, 'docs/deploy.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Containers'), doc.indexOf('\n## ', doc.indexOf('## Containers') + 1));
  const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
  const services = new Map<string, { image: string; ports: string[]; variables: string[] }>();
  for (const line of section.split('\n').filter((row) => row.startsWith('| `'))) {
    const [names, image, ports, variables] = line.split('|').slice(1, -1);
    for (const name of ticked(names)) services.set(name, { image: ticked(image)[0], ports: ticked(ports), variables: ticked(variables) });
  }
  return services;
}

describe('compose.yaml', () => {
  const compose = parse(readFileSync(join(repoRoot, 'compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, { image?: string; build?: string; ports?: string[]; environment?: Record<string, string>; command?: string[]; depends_on?: Record<string, unknown> }>;
  };

  it('has the services, ports and variables docs/deploy.md lists, and no others', () => {
    const documented = documentedServices();
    expect(Object.keys(compose.services).sort()).toEqual([...documented.keys()].sort());
    for (const [name, service] of Object.entries(compose.services)) {
      const doc = documented.get(name)!;
      expect(service.image, name).toBe(doc.image);
      expect(service.ports ?? [], name).toEqual(doc.ports);
      expect(Object.keys(service.environment ?? {}).sort(), name).toEqual([...doc.variables].sort());
    }
  });

  it('runs three aviary serve processes of the image built here, after one migrate, behind nginx alone on a published port', () => {
    const aviary = Object.entries(compose.services).filter(([, service]) => service.build === '.');
    expect(aviary.map(([name, service]) => [name, service.command])).toEqual([
      ['migrate', ['migrate']],
      ['aviary-1', ['serve']],
      ['aviary-2', ['serve']],
      ['aviary-3', ['serve']],
    ]);
    for (const [name, service] of aviary.slice(1)) expect(service.depends_on, name).toMatchObject({ migrate: { condition: 'service_completed_successfully' } });
    const published = Object.entries(compose.services).filter(([, service]) => service.ports);
    expect(published.map(([name]) => name)).toEqual(['nginx']);
    // The processes trust nginx's address on the compose network, and nothing else.
    const nginxAddress = (compose.services.nginx as { networks: { aviary: { ipv4_address: string } } }).networks.aviary.ipv4_address;
    for (const [, service] of aviary) expect(service.environment?.AVIARY_TRUST_PROXY).toBe(nginxAddress);
  });

  it('gives every aviary process one required secret key and the object store’s bucket, made before they start', () => {
    const aviary = Object.entries(compose.services).filter(([, service]) => service.build === '.');
    for (const [name, service] of aviary) {
      expect(service.environment?.AVIARY_SECRET_KEY, name).toMatch(/^\$\{AVIARY_SECRET_KEY:\?/);
      expect(service.environment, name).toMatchObject({ AVIARY_S3_BUCKET: 'aviary-files', AVIARY_S3_ENDPOINT: 'http://objectstore:9000', AVIARY_S3_FORCE_PATH_STYLE: '1' });
    }
    const bucket = compose.services['objectstore-bucket'] as { command: string[] };
    expect(bucket.command.join(' ')).toContain('mc mb --ignore-existing store/aviary-files');
    for (const [name, service] of aviary.slice(1)) expect(service.depends_on, name).toMatchObject({ 'objectstore-bucket': { condition: 'service_completed_successfully' } });
  });

  it("gives nginx deploy/nginx/aviary.conf with the three processes as its upstream (npx tsx deploy/docker/nginx.ts writes it)", () => {
    expect(readFileSync(composeNginxFile, 'utf8')).toBe(composeNginxConfig());
  });
});
