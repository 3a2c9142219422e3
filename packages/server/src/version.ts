import { readFileSync } from 'node:fs';

/** This version of Aviary (semantic versioning; CHANGELOG.md says what each one asks of an operator). */
export const aviaryVersion: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
