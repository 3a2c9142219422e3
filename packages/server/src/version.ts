import { existsSync, readFileSync } from 'node:fs';

/**
 * The server package's package.json: beside src/ when run from the sources (src/version.ts), and two
 * levels up from the built CLI's chunks (dist/cli/).
 */
function serverPackageJson(): string {
  const candidates = ['../package.json', '../../package.json'].map((path) => new URL(path, import.meta.url));
  const found = candidates.find((url) => existsSync(url) && (JSON.parse(readFileSync(url, 'utf8')) as { name?: string }).name === '@aviary/server');
  if (!found) throw new Error('the @aviary/server package.json was not found beside the code');
  return readFileSync(found, 'utf8');
}

/** This version of Aviary (semantic versioning; CHANGELOG.md says what each one asks of an operator). */
export const aviaryVersion: string = (JSON.parse(serverPackageJson()) as { version: string }).version;
