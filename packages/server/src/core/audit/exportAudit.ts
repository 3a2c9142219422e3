import { JsonLinesWriter } from '../transfer/jsonLines.js';
import type { Db } from '../../store/store.js';
import { listAudit, type AuditFilter } from './list.js';

/**
 * Writes a team's audit log, newest first, as JSON lines (one row as audit.list answers it per line), a
 * page at a time: what is held in memory is one page, however long the log. Answers the rows written.
 */
export async function exportAudit(db: Db, teamId: string, filter: AuditFilter, options: { outFile: string; pageSize: number }): Promise<number> {
  const writer = new JsonLinesWriter(options.outFile);
  try {
    let cursor: string | undefined;
    do {
      const page = await listAudit(db, teamId, filter, { cursor, limit: options.pageSize });
      for (const entry of page.entries) await writer.write(entry);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    await writer.close();
    return writer.count;
  } catch (error) {
    writer.destroy();
    throw error;
  }
}
