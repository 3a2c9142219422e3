import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { Database } from './schema.js';
import type { SecretKeyring } from './secretKeys.js';

/** The store's Kysely or a transaction of it (store.ts's Db, named here without importing it back). */
type Db = Kysely<Database>;

/** The columns of `apps` that hold a secret, sealed at rest. */
const SECRET_COLUMNS = ['secret', 'previous_secret'] as const;

/**
 * Opens sealed app secrets as rows are read: a result column named `secret` or `previous_secret` (the
 * apps table's; no other table has one) comes back as the secret itself, so the code that signs
 * events, widget URLs and the developer's view reads `app.secret` as before. Writing seals explicitly
 * (`sealAppSecret`): createApp and rotateAppSecret, and `sealAppSecrets` at migration. A column read
 * under another name (`secret as stored_secret`) stays as stored. Queries run by `executeCompiled` on
 * SQLite's direct driver skip plugins: none of them reads a secret.
 */
export class SealedAppSecretsPlugin implements KyselyPlugin {
  constructor(readonly keyring: SecretKeyring) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const { rows } = args.result;
    if (rows.length === 0 || !SECRET_COLUMNS.some((column) => column in rows[0])) return args.result;
    for (const row of rows) {
      for (const column of SECRET_COLUMNS) {
        const stored = row[column];
        if (typeof stored === 'string') row[column] = this.keyring.open(stored);
      }
    }
    return args.result;
  }
}

/** The keyring of the store `db` (or a transaction of it) belongs to. */
export function appSecretKeyring(db: Db): SecretKeyring {
  const plugin = db.getExecutor().plugins.find((candidate): candidate is SealedAppSecretsPlugin => candidate instanceof SealedAppSecretsPlugin);
  if (!plugin) throw new Error('this store has no secret keyring: open it with openStore');
  return plugin.keyring;
}

/** A new secret as the apps table stores it: sealed with the current key. */
export const sealAppSecret = (db: Db, secret: string): string => appSecretKeyring(db).seal(secret);

/**
 * The other columns sealed with the server's key, opened by their readers rather than by the plugin: a
 * team's own single sign-on client secret and the Web Push private key. Each is a table, its key column and
 * the sealed column.
 */
const OTHER_SEALED = [
  { table: 'team_sign_in', key: 'team_id', column: 'oidc_client_secret_sealed' },
  { table: 'web_push_keys', key: 'id', column: 'private_key' },
] as const;

/**
 * Seals every stored secret again that is not sealed with the current key: the app secrets (sealAppSecrets)
 * and the other sealed columns, so that once the server has started with a new key first the old key can go.
 * Answers how many rows it sealed.
 */
export async function sealStoredSecrets(db: Db): Promise<number> {
  let sealed = await sealAppSecrets(db);
  const keyring = appSecretKeyring(db);
  // Table and column names come from OTHER_SEALED, typed loosely so one loop serves them all.
  const loose = db as unknown as Kysely<Record<string, Record<string, string | null>>>;
  for (const { table, key, column } of OTHER_SEALED) {
    const rows = await loose.selectFrom(table).select([key, column]).where(column, 'is not', null).execute();
    for (const row of rows) {
      const stored = row[column]!;
      if (keyring.isCurrent(stored)) continue;
      // Changed only if it still holds what was read, so processes starting together seal it once.
      const result = await loose.updateTable(table).set({ [column]: keyring.seal(keyring.open(stored)) }).where(key, '=', row[key]).where(column, '=', stored).executeTakeFirst();
      sealed += Number(result.numUpdatedRows);
    }
  }
  return sealed;
}

/**
 * Seals every app secret not yet sealed with the current key: those stored before sealing (the upgrade
 * to this version) and those sealed with a key since rotated out. Run with the migrations, by whoever has
 * the keys; each row is changed only if it still holds what was read, so processes starting together
 * seal it once. Answers how many apps it sealed.
 */
export async function sealAppSecrets(db: Db): Promise<number> {
  const keyring = appSecretKeyring(db);
  const rows = await db.selectFrom('apps').select(['id', 'secret as stored_secret', 'previous_secret as stored_previous']).execute();
  let sealed = 0;
  for (const row of rows) {
    const secretCurrent = keyring.isCurrent(row.stored_secret);
    const previousCurrent = row.stored_previous === null || keyring.isCurrent(row.stored_previous);
    if (secretCurrent && previousCurrent) continue;
    let update = db
      .updateTable('apps')
      .set({
        secret: secretCurrent ? row.stored_secret : keyring.seal(keyring.open(row.stored_secret)),
        previous_secret: row.stored_previous === null || previousCurrent ? row.stored_previous : keyring.seal(keyring.open(row.stored_previous)),
      })
      .where('id', '=', row.id)
      .where('secret', '=', row.stored_secret);
    update = row.stored_previous === null ? update.where('previous_secret', 'is', null) : update.where('previous_secret', '=', row.stored_previous);
    const result = await update.executeTakeFirst();
    sealed += Number(result.numUpdatedRows);
  }
  return sealed;
}
