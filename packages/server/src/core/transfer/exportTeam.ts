import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileStorage } from '../../files/fileStorage.js';
import type { FilesTable } from '../../store/schema.js';
import { appSecretKeyring } from '../../store/sealedAppSecrets.js';
import type { Db } from '../../store/store.js';
import { aviaryVersion } from '../../version.js';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, kindNamed, kinds, MANIFEST_FILE, toRecord, type KindSpec, type Manifest, type Row } from './format.js';
import { exportFileBytes, exportPictureBytes, FILE_BYTES_FOLDER, type BytesWritten } from './fileBytes.js';
import { JsonLinesWriter } from './jsonLines.js';
import { pagesOf, type RowFilter } from './readKind.js';
import { TransferRefusal } from './refusal.js';

export interface ExportOptions {
  outDir: string;
  includeSecrets: boolean;
  /** Where the team's files' bytes are read from (files/storage.ts). */
  storage: FileStorage;
  /** Rows per query (default 1000). */
  batchSize?: number;
  /** Told of each page read: the kind and its rows (tests check that pages stay bounded). */
  onBatch?: (kind: string, rows: number) => void;
  /** Told of each file written: its records, and the most bytes its stream held unwritten at any time. */
  onFile?: (kind: string, written: { count: number; maxBufferedBytes: number }) => void;
  now: number;
}

export type ExportScope = Manifest['scope'];

/**
 * Writes the team `teamId` of `db` (one consistent view: store/readSnapshot.ts) to `outDir`: every kind
 * of format.ts in a file of its own, then manifest.json, last, so that a directory with a manifest is a
 * finished export. A compliance scope (`channel`, `person`) writes only the messages it selects. The
 * bytes of the team's files go to the `files/` folder, and its pictures' squares to `pictures/`
 * (fileBytes.ts), as their records are written.
 */
export async function exportTeam(db: Db, teamId: string, scope: ExportScope, options: ExportOptions): Promise<Manifest> {
  const team = await db.selectFrom('teams').select(['id', 'name']).where('id', '=', teamId).executeTakeFirst();
  if (!team) throw new TransferRefusal('UnknownTeam', `There is no team "${teamId}".`);
  prepareOutDir(options.outDir);
  const written: Manifest['kinds'] = {};
  const selected = scope.kind === 'team' ? kinds.filter((spec) => options.includeSecrets || !spec.secret) : [kindNamed('messages')!];
  const run: ExportRun = { db, teamId, options, filter: complianceFilter(scope), bytes: { files: 0, bytes: 0 }, leftOut: new Set() };
  for (const spec of selected) {
    written[spec.kind] = { file: spec.file, count: await exportKind(run, spec) };
  }
  const manifest: Manifest = {
    format: EXPORT_FORMAT,
    formatVersion: EXPORT_FORMAT_VERSION,
    aviaryVersion,
    exportedAt: new Date(options.now).toISOString(),
    scope,
    team: { id: team.id, name: team.name },
    includesSecrets: options.includeSecrets && scope.kind === 'team',
    kinds: written,
    ...(scope.kind === 'team' ? { fileBytes: { folder: FILE_BYTES_FOLDER, ...run.bytes } } : {}),
  };
  writeFileSync(join(options.outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return manifest;
}

/** One export under way: what it reads, and the files it left out (their bytes were gone: deleted meanwhile). */
interface ExportRun {
  db: Db;
  teamId: string;
  options: ExportOptions;
  filter: RowFilter | undefined;
  bytes: BytesWritten;
  leftOut: Set<string>;
}

async function exportKind(run: ExportRun, spec: KindSpec): Promise<number> {
  const { db, teamId, options, filter } = run;
  const writer = new JsonLinesWriter(join(options.outDir, spec.file));
  const sealer = appSecretKeyring(db);
  try {
    for await (const rows of pagesOf(db, spec, teamId, { batchSize: options.batchSize ?? 1000, includeSecrets: options.includeSecrets, filter })) {
      options.onBatch?.(spec.kind, rows.length);
      for (const row of rows) {
        if (!(await keepRow(run, spec, row))) continue;
        await writer.write(toRecord(spec, row, options.includeSecrets, sealer));
      }
    }
    await writer.close();
    options.onFile?.(spec.kind, { count: writer.count, maxBufferedBytes: writer.maxBuffered });
  } catch (error) {
    writer.destroy();
    throw error;
  }
  return writer.count;
}

/**
 * A file is written with its bytes, or left out with its links when storage no longer has them; a
 * picture with its squares, or left out (its owner's URL to it is dropped on import).
 */
async function keepRow(run: ExportRun, spec: KindSpec, row: Row): Promise<boolean> {
  if (spec.kind === 'messageFiles') return !run.leftOut.has(row.file_id as string);
  if (spec.kind === 'pictures') return exportPictureBytes(run.options.storage, { id: row.id as string, team_id: run.teamId }, run.options.outDir);
  if (spec.kind !== 'files') return true;
  const file = { id: row.id, team_id: run.teamId, renditions: row.renditions } as Pick<FilesTable, 'id' | 'team_id' | 'renditions'>;
  const kept = await exportFileBytes(run.options.storage, file, run.options.outDir, run.bytes);
  if (!kept) run.leftOut.add(row.id as string);
  return kept;
}

/** A compliance export's messages: in the channel, or sent by the person or to them directly; within the times. */
function complianceFilter(scope: ExportScope): RowFilter | undefined {
  if (scope.kind === 'team') return undefined;
  return (eb) =>
    eb.and([
      scope.kind === 'channel' ? eb('chat_key', '=', scope.channelId) : eb.or([eb('from_user_id', '=', scope.userId), eb('to_id', '=', scope.userId)]),
      ...(scope.since !== null ? [eb('timestamp', '>=', scope.since)] : []),
      ...(scope.until !== null ? [eb('timestamp', '<', scope.until)] : []),
    ]);
}

/** The directory is made if missing; one holding anything is refused, so an export never mixes with another. */
function prepareOutDir(dir: string): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new TransferRefusal('InvalidOption', `${dir} is a file: give --out a new or empty directory.`);
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new TransferRefusal('InvalidOption', `${dir} is not empty: give --out a new or empty directory.`);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}
