import {
  CompiledQuery,
  PostgresDialect,
  sql,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Driver,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
  type TransactionSettings,
} from 'kysely';
import { BEGIN_AS_STREAM_WRITER, MARK_STREAM_WRITER } from './streamWatermark.js';

/**
 * Kysely's PostgreSQL introspector reads every schema of the database and checks each by name
 * (`has_schema_privilege(nspname, …)`), which fails with "schema … does not exist" when another schema is
 * dropped meanwhile: on a database shared with other schemas, a migration (the only reader: the migrator
 * asks whether its own tables exist) could fail for something that is none of its business. This one reads
 * the store's own schema alone.
 */
class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string | undefined,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select coalesce(${this.schema ?? null}, current_schema()) as name`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where c.relkind in ('r', 'v', 'p') and ns.nspname = coalesce(${this.schema ?? null}, current_schema())`.execute(this.db);
    return rows.map((row) => ({ name: row.name, schema: row.schema, isView: row.kind === 'v', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/**
 * The PostgreSQL dialect, introspecting only the store's own schema (`pgSchema`, else the current one),
 * whose transactions begin by taking the stream writers' lock (streamWatermark.ts).
 */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly schema: string | undefined,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db, this.schema);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const begin = driver.beginTransaction.bind(driver);
    driver.beginTransaction = async (connection: DatabaseConnection, settings: TransactionSettings) => {
      if (settings.isolationLevel || settings.accessMode) {
        await begin(connection, settings);
        await connection.executeQuery(CompiledQuery.raw(MARK_STREAM_WRITER));
      } else {
        await connection.executeQuery(CompiledQuery.raw(BEGIN_AS_STREAM_WRITER));
      }
    };
    return driver;
  }
}
