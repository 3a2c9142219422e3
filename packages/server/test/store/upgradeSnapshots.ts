import { sql } from 'kysely';
import { tableColumns } from '../../src/store/catalog.js';
import type { Store } from '../../src/store/store.js';

/** A store's tables (kysely's own aside): each one's columns, and its rows as sorted JSON texts of them. */
export interface TableContents {
  columns: Map<string, Set<string>>;
  rows: Record<string, string[]>;
}

/**
 * Every table's rows; with `columns`, only those tables and columns (an upgraded store's, as they were
 * before: what the migrations added is theirs to fill).
 */
export async function tableContents(store: Store, columns?: Map<string, Set<string>>): Promise<TableContents> {
  const tables = columns ?? new Map([...(await tableColumns(store.db, store.dialect, undefined))].filter(([table]) => !table.startsWith('kysely_')));
  const rows: Record<string, string[]> = {};
  for (const [table, names] of tables) {
    const found = await store.db
      .selectFrom(table as never)
      .select([...names].sort() as never[])
      .execute();
    rows[table] = found.map((row) => JSON.stringify(row)).sort();
  }
  return { columns: tables, rows };
}

/** What a store's schema is made of: tables with their columns, and indexes and triggers by name. */
export async function schemaOf(store: Store, pgSchema: string | undefined): Promise<{ tables: Record<string, string[]>; indexes: string[] }> {
  const tables = Object.fromEntries([...(await tableColumns(store.db, store.dialect, pgSchema))].map(([table, names]) => [table, [...names].sort()]));
  const { rows } =
    store.dialect === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = coalesce(${pgSchema ?? null}, current_schema())`.execute(store.db)
      : await sql<{ name: string }>`select type || ' ' || name as name from sqlite_master where type in ('index', 'trigger') and name not like 'sqlite_autoindex%'`.execute(store.db);
  return { tables, indexes: rows.map((row) => row.name).sort() };
}
