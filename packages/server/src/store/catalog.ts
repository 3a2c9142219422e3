import { sql, type Kysely } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** The store's tables and their columns, read from the database's own catalog. */
export async function tableColumns(db: Kysely<any>, dialect: DialectName, pgSchema: string | undefined): Promise<Map<string, Set<string>>> {
  const { rows } =
    dialect === 'postgres'
      ? // pg_catalog, not information_schema, whose privilege checks may trip over another schema dropped meanwhile.
        await sql<{ table: string; column: string }>`select c.relname as "table", a.attname as "column"
          from pg_catalog.pg_class c
          join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
          join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
          where c.relkind in ('r', 'p') and ns.nspname = coalesce(${pgSchema ?? null}, current_schema())`.execute(db)
      : await sql<{ table: string; column: string }>`select m.name as "table", c.name as "column" from sqlite_master m join pragma_table_info(m.name) c
          where m.type = 'table'`.execute(db);
  const tables = new Map<string, Set<string>>();
  for (const { table, column } of rows) tables.set(table, (tables.get(table) ?? new Set()).add(column));
  return tables;
}
