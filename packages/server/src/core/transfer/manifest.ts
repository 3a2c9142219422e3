import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, kindNamed, MANIFEST_FILE, type Manifest } from './format.js';
import { TransferRefusal } from './refusal.js';

/** The manifest of an export directory, checked for what an import needs: this format, a whole team, known kinds. */
export function readManifest(dir: string): Manifest {
  const path = join(dir, MANIFEST_FILE);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  } catch (error) {
    throw new TransferRefusal('InvalidOption', `${path} cannot be read as an export's manifest: ${(error as Error).message}`);
  }
  const refuse = (why: string) => new TransferRefusal('InvalidOption', `${path}: ${why}`);
  if (manifest?.format !== EXPORT_FORMAT) throw refuse(`not an export of aviary team export (its "format" is not "${EXPORT_FORMAT}").`);
  if (!Number.isInteger(manifest.formatVersion) || manifest.formatVersion > EXPORT_FORMAT_VERSION) {
    throw refuse(`format version ${String(manifest.formatVersion)} is newer than this Aviary reads (${EXPORT_FORMAT_VERSION}): import it with Aviary ${manifest.aviaryVersion} or later.`);
  }
  if (manifest.scope?.kind !== 'team') throw refuse(`a compliance export (of one ${String(manifest.scope?.kind)}) holds messages only and cannot be imported.`);
  if (typeof manifest.team?.id !== 'string' || typeof manifest.kinds !== 'object' || manifest.kinds === null) throw refuse('it names no team or no kinds.');
  const unknown = Object.keys(manifest.kinds).filter((kind) => !kindNamed(kind));
  if (unknown.length > 0) throw refuse(`it holds ${unknown.join(', ')}, which this Aviary does not know: import it with Aviary ${manifest.aviaryVersion} or later.`);
  if (!manifest.kinds.team || !manifest.kinds.people) throw refuse('it lists no team.jsonl or no people.jsonl.');
  return manifest;
}
