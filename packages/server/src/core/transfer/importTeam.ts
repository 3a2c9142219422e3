import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { newSecret } from '../../store/ids.js';
import { insertMessages } from '../../store/rows/messages.js';
import { insertUser, type UserFields } from '../../store/rows/users.js';
import { importedTimeZone } from '../timeZones.js';
import type { MessagesTable } from '../../store/schema.js';
import type { FileStorage } from '../../files/fileStorage.js';
import { appSecretKeyring, sealAppSecret } from '../../store/sealedAppSecrets.js';
import { drainSearchQueue } from '../search/searchQueue.js';
import type { Db, Tx } from '../../store/store.js';
import { kinds, toRow, type ExportRecord, type KindSpec, type Manifest, type Row } from './format.js';
import { importFileBytes, importPictureBytes } from './fileBytes.js';
import { relinkPictures } from './relinkPictures.js';
import { recordAudit, type AuditActor } from '../audit/record.js';
import { consistencyProblem } from './importChecks.js';
import { inGroups, readJsonLines, type Line } from './jsonLines.js';
import { readManifest } from './manifest.js';
import { TransferRefusal } from './refusal.js';

export interface ImportSummary {
  teamId: string;
  teamName: string;
  /** Records written, by kind. */
  counts: Record<string, number>;
  /** Apps that got a new secret, because the export was made without --include-secrets. */
  appsWithNewSecrets: number;
}

export interface ImportOptions {
  /** Where the files' bytes go (files/storage.ts): the target's directory or bucket. */
  storage: FileStorage;
  /** A picture's URL on the target (`/pictures/<id>`, absolute when it knows its public URL). */
  pictureUrl: (pictureId: string) => string;
  /** Who imports, and when: the audit log's `team.imported`, written in the import's transaction. */
  recordedAs: { actor: AuditActor; at: number };
  /** Records per INSERT (default 500). */
  batchSize?: number;
  onKind?: (kind: string, count: number) => void;
}

/**
 * Reads an export of `aviary team export` into `db`, keeping every id, in ONE transaction: ids the store
 * already holds refuse the import with the first of them named, a check at the end refuses records that
 * point at nothing, and a refusal or failure anywhere leaves the store as it was. Derived data is made
 * as the rows go in, the search index's queue by its trigger (migrations 0029 and 0040), which is then
 * indexed in batches after the commit, before the import returns. Stream entries are not carried:
 * the team's stream starts afresh, and a client that connects loads the history. The files' bytes are
 * put into storage before their rows commit (as an upload does), and removed again if the import fails.
 * The audit log's `team.imported` commits with the rows.
 */
export async function importTeam(db: Db, fromDir: string, options: ImportOptions): Promise<ImportSummary> {
  const manifest = readManifest(fromDir);
  const summary: ImportSummary = { teamId: manifest.team.id, teamName: manifest.team.name, counts: {}, appsWithNewSecrets: 0 };
  const run: ImportRun = { dir: fromDir, manifest, summary, batchSize: options.batchSize ?? 500, storage: options.storage, stored: [] };
  try {
    await importAll(db, run, options);
  } catch (error) {
    for (const key of run.stored) await options.storage.delete(key).catch(() => undefined);
    throw error;
  }
  // Indexed now, not by the server's first drain or the first search, which would wait for a million.
  await drainSearchQueue(db);
  return summary;
}

/** One import under way: where it reads, what it has counted, and the storage keys it has written. */
interface ImportRun {
  dir: string;
  manifest: Manifest;
  summary: ImportSummary;
  batchSize: number;
  storage: FileStorage;
  stored: string[];
}

async function importAll(db: Db, run: ImportRun, options: ImportOptions): Promise<void> {
  const { manifest, summary } = run;
  await db.transaction().execute(async (tx) => {
    for (const spec of kinds) {
      const listed = manifest.kinds[spec.kind];
      if (!listed) continue;
      const count = await importKind(tx, spec, run);
      if (count !== listed.count) {
        throw new TransferRefusal('InvalidOption', `${spec.file} holds ${count} records but manifest.json says ${listed.count}: the export is incomplete.`);
      }
      summary.counts[spec.kind] = count;
      options.onKind?.(spec.kind, count);
    }
    await relinkPictures(tx, manifest.team.id, options.pictureUrl);
    const problem = await consistencyProblem(tx, manifest.team.id);
    if (problem) throw new TransferRefusal('InvalidOption', `The export is not consistent, nothing was imported: ${problem}`);
    const { actor, at } = options.recordedAs;
    await recordAudit(tx, { teamId: manifest.team.id, actor, at, action: 'team.imported', target: { kind: 'team', id: manifest.team.id }, details: { counts: summary.counts } });
  });
}

async function importKind(tx: Tx, spec: KindSpec, { dir, manifest, summary, batchSize, storage, stored }: ImportRun): Promise<number> {
  const path = join(dir, spec.file);
  const sealer = appSecretKeyring(tx);
  if (!existsSync(path)) throw new TransferRefusal('InvalidOption', `manifest.json lists ${spec.file}, but ${path} is missing.`);
  let count = 0;
  for await (const lines of inGroups(readJsonLines(path), batchSize)) {
    const records = lines.map((line) => checkedRecord(spec, line, path, manifest.team.id));
    await refuseTakenKeys(tx, spec, records, path);
    const rows = records.map(({ record }) => toRow(spec, record, manifest.team.id, sealer));
    if (spec.kind === 'apps') summary.appsWithNewSecrets += sealSecrets(tx, rows);
    if (spec.kind === 'files' || spec.kind === 'pictures') {
      const put = spec.kind === 'files' ? importFileBytes : importPictureBytes;
      for (const [index, row] of rows.entries()) stored.push(...(await put(storage, row, dir, `${path}:${lines[index].line}`)));
    }
    try {
      await insertRows(tx, spec, rows);
    } catch (error) {
      throw new TransferRefusal('InvalidOption', `${path}:${lines[0].line}-${lines[lines.length - 1].line} could not be stored: ${(error as Error).message}`);
    }
    count += rows.length;
  }
  return count;
}

/** Messages and users through their one writers (store/rows/), every other kind as its table's rows. */
async function insertRows(tx: Tx, spec: KindSpec, rows: Row[]): Promise<void> {
  if (spec.table === 'messages') return insertMessages(tx, rows as unknown as MessagesTable[]);
  if (spec.table === 'users') {
    // Exports made before zones (migration 0031) carry UTC offsets.
    for (const row of rows) await insertUser(tx, { ...(row as unknown as UserFields), timezone: importedTimeZone(row.timezone) });
    return;
  }
  await (tx as unknown as Kysely<any>).insertInto(spec.table).values(rows).execute();
}

/**
 * A record must be an object with its key fields given (text, or a number such as an edit's time); the
 * team's record must be the manifest's team.
 */
function checkedRecord(spec: KindSpec, { line, value }: Line, path: string, teamId: string): { line: number; record: ExportRecord } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TransferRefusal('InvalidOption', `${path}:${line} is not a JSON object.`);
  }
  const record = value as ExportRecord;
  for (const column of spec.key) {
    const field = spec.fields.find((candidate) => candidate.column === column)!.field;
    const key = record[field];
    if (!((typeof key === 'string' && key !== '') || (typeof key === 'number' && Number.isSafeInteger(key)))) {
      throw new TransferRefusal('InvalidOption', `${path}:${line} has no "${field}" (text, or a whole number).`);
    }
  }
  if (spec.kind === 'team' && record.id !== teamId) {
    throw new TransferRefusal('InvalidOption', `${path}:${line} is team "${String(record.id)}", but manifest.json is of team "${teamId}".`);
  }
  return { line, record };
}

/** Refuses a batch any of whose ids the store holds already (every kind with a one-column key; the others hang off those). */
async function refuseTakenKeys(tx: Tx, spec: KindSpec, records: Array<{ line: number; record: ExportRecord }>, path: string): Promise<void> {
  if (spec.key.length !== 1) return;
  const column = spec.key[0];
  const field = spec.fields.find((candidate) => candidate.column === column)!.field;
  const ids = records.map(({ record }) => record[field] as string);
  const taken = await (tx as unknown as Kysely<any>).selectFrom(spec.table).select(column).where(column, 'in', ids).execute();
  if (taken.length === 0) return;
  const first = String((taken[0] as Row)[column]);
  const line = records.find(({ record }) => record[field] === first)!.line;
  throw new TransferRefusal(
    'ImportConflict',
    `${path}:${line}: ${spec.kind} "${first}" is already in this store (${taken.length} of this batch are). Nothing was imported: ` +
      'an export is imported into a store that does not hold the team yet.',
  );
}

/** Seals the apps' secrets for this store; an app exported without its secret gets a new one. Answers how many did. */
function sealSecrets(tx: Tx, rows: Row[]): number {
  let made = 0;
  for (const row of rows) {
    if (typeof row.secret !== 'string') {
      row.secret = newSecret('as_');
      row.previous_secret = null;
      row.previous_secret_until = null;
      made++;
    }
    row.secret = sealAppSecret(tx, row.secret as string);
    if (typeof row.previous_secret === 'string') row.previous_secret = sealAppSecret(tx, row.previous_secret);
  }
  return made;
}
