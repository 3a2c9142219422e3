#!/usr/bin/env node
// Records the migrations of a release in packages/server/src/store/migrations/released.json: each name and
// the SHA-256 of its file. From then on test/store/releasedMigrations.test.ts fails if any of them is
// renamed, removed, reordered or edited. Run from the repository root when releasing (docs/testing.md):
//
//   node packages/server/scripts/record-released-migrations.mjs <version>
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const version = process.argv[2];
if (!/^\d+\.\d+\.\d+$/.test(version ?? '')) {
  process.stderr.write('usage: record-released-migrations.mjs <version, e.g. 0.11.0>\n');
  process.exit(2);
}
const folder = 'packages/server/src/store/migrations';
const migrations = readdirSync(folder)
  .filter((file) => /^\d{4}_\w+\.ts$/.test(file))
  .sort()
  .map((file) => ({ name: file.replace(/\.ts$/, ''), sha256: createHash('sha256').update(readFileSync(join(folder, file), 'utf8').replaceAll('\r\n', '\n')).digest('hex') }));
writeFileSync(join(folder, 'released.json'), `${JSON.stringify({ version, migrations }, null, 2)}\n`);
process.stdout.write(`recorded ${migrations.length} migrations as released in ${version}\n`);
