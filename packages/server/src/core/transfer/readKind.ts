import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Db } from '../../store/store.js';
import type { KindSpec, Row } from './format.js';

/** A condition on the kind's rows besides the team (a compliance export's channel, person and times). */
export type RowFilter = (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>;

export interface PageOptions {
  /** Rows per query: the most rows held in memory at once. */
  batchSize: number;
  includeSecrets: boolean;
  filter?: RowFilter;
}

/** Rows after `after` in the order of `key`: (k1 > a) or (k1 = a and k2 > b)… */
function keysetAfter(eb: ExpressionBuilder<any, any>, key: readonly string[], after: readonly unknown[]): Expression<SqlBool> {
  const [first, ...rest] = key;
  if (rest.length === 0) return eb(first, '>', after[0]);
  return eb.or([eb(first, '>', after[0]), eb.and([eb(first, '=', after[0]), keysetAfter(eb, rest, after.slice(1))])]);
}

/**
 * The team's rows of one kind, page by page in primary-key order: each page is one query after the last
 * key of the one before (never an OFFSET, so each page costs the same however deep), and at most
 * `batchSize` rows. Secret columns are not even read unless they are to be written.
 */
export async function* pagesOf(db: Db, spec: KindSpec, teamId: string, options: PageOptions): AsyncGenerator<Row[]> {
  const anyDb = db as unknown as Kysely<any>;
  const columns = spec.fields.filter((field) => options.includeSecrets || !field.secret).map((field) => field.column);
  let after: unknown[] | undefined;
  for (;;) {
    let query = anyDb.selectFrom(spec.table).select(columns);
    const { parent } = spec.scope;
    query = parent
      ? query.where(spec.scope.column, 'in', anyDb.selectFrom(parent.table).select(parent.key).where('team_id', '=', teamId))
      : query.where(spec.scope.column, '=', teamId);
    if (after) {
      const last = after;
      query = query.where((eb) => keysetAfter(eb, spec.key, last));
    }
    if (spec.only) query = query.where(spec.only.column, '=', spec.only.value);
    if (options.filter) query = query.where(options.filter);
    for (const column of spec.key) query = query.orderBy(column);
    const rows = (await query.limit(options.batchSize).execute()) as Row[];
    if (rows.length > 0) yield rows;
    if (rows.length < options.batchSize) return;
    const lastRow = rows[rows.length - 1];
    after = spec.key.map((column) => lastRow[column]);
  }
}
