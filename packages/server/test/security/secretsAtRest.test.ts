import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { rotateAppSecret } from '../../src/core/commands/apps.js';
import { vapidKeys } from '../../src/core/push/vapidKeys.js';
import { updateSignInSettings } from '../../src/core/signIn/settings.js';
import { sendTestEvent } from '../../src/events/delivery/testEvent.js';
import { SECRET_KEY_FILE } from '../../src/store/secretKeys.js';
import { openStore, type Db } from '../../src/store/store.js';
import { answerWithSdk, startListener, type TestListener } from '../helpers/listener.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { cliActor } from '../../src/core/audit/record.js';

/**
 * App secrets are sealed at rest with the server's key: what a dump of the apps table shows holds no
 * secret, while the server still signs events every app verifies with its secret. Secrets stored before
 * sealing are read as they are and sealed by the next migration; a new key seals them again.
 */
const listeners: TestListener[] = [];
afterEach(async () => {
  for (const listener of listeners.splice(0)) await listener.close();
});

/** The apps table as a dump shows it: every column as stored, read past the store's keyring. */
async function dumpApps(db: Db): Promise<string> {
  const { rows } = await sql`select * from apps`.execute(db.withoutPlugins());
  return JSON.stringify(rows);
}

async function storedSecrets(db: Db, appId: string) {
  const { rows } = await sql<{ secret: string; previous_secret: string | null }>`select secret, previous_secret from apps where id = ${appId}`.execute(db.withoutPlugins());
  return rows[0];
}

/** An app with a listener that verifies with `secret`, through the SDK; a test event to it; true once it verified. */
async function eventVerifies(t: TestServer, db: Db, appId: string, secret: string): Promise<void> {
  const listener = await startListener(answerWithSdk);
  listeners.push(listener);
  listener.verifyAs(appId, secret);
  await db.updateTable('apps').set({ listener_url: listener.url }).where('id', '=', appId).execute();
  const app = await db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirstOrThrow();
  const person = { id: app.developer_id, first_name: 'Dev', last_name: 'Eloper' };
  const result = await sendTestEvent(t.server.ctx, app, person, { name: 'app.install', userId: person.id, token: 'token', userToken: 'token' });
  expect(result).toMatchObject({ status: 200 });
  expect(await listener.waitForVerified(1)).toHaveLength(1);
}

forEachDialect('app secrets at rest', (t) => {
  const newApp = async () => {
    const team = await t().f.team();
    const developer = await t().f.person(team.id);
    return t().f.app(team.id, developer.id);
  };

  it('keeps no secret in clear in the apps table, before and after a rotation, and events still verify', async () => {
    const db = t().testStore.store.db;
    const app = await newApp();
    expect(app.secret).toMatch(/^as_/);
    const { secret } = await rotateAppSecret(t().server.ctx, cliActor, { appId: app.id });
    const dump = await dumpApps(db);
    for (const clear of [app.secret, secret]) expect(dump).not.toContain(clear);
    const stored = await storedSecrets(db, app.id);
    expect(stored.secret).toMatch(/^sealed:v1:[0-9a-f]{16}:/);
    expect(stored.previous_secret).toMatch(/^sealed:v1:[0-9a-f]{16}:/);
    await eventVerifies(t(), db, app.id, secret);
  });

  it('generates the key into the data directory, readable by its owner alone', () => {
    const file = join(t().testStore.dataDir, SECRET_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
  });

  it('reads a secret stored before sealing as it is, and the next migration seals it', async () => {
    const db = t().testStore.store.db;
    const app = await newApp();
    // The row as a version before sealing left it.
    await db.withoutPlugins().updateTable('apps').set({ secret: app.secret }).where('id', '=', app.id).execute();
    expect((await db.selectFrom('apps').select('secret').where('id', '=', app.id).executeTakeFirstOrThrow()).secret).toBe(app.secret);
    await t().testStore.store.migrate();
    expect(await dumpApps(db)).not.toContain(app.secret);
    await eventVerifies(t(), db, app.id, app.secret);
  });

  it('rotates the key: with the new key first, the migration seals every secret again (apps, single sign-on, Web Push), and the old key is no longer needed', async () => {
    const { dataDir, databaseUrl, pgSchema } = t().testStore;
    const oldKey = readFileSync(join(dataDir, SECRET_KEY_FILE), 'utf8').trim();
    const newKey = randomBytes(32).toString('base64');
    const app = await newApp();
    const before = await storedSecrets(t().testStore.store.db, app.id);
    // A team's own single sign-on secret and the Web Push key are sealed with the same key.
    const { store } = t().testStore;
    const ssoTeam = await t().f.team();
    const provider = { issuer: 'https://idp.example.test', clientId: 'aviary', clientSecret: 'sso-secret-in-clear', allowedDomains: [], createAccounts: false };
    await updateSignInSettings({ db: store.db, keyring: store.keyring, envProvider: undefined }, ssoTeam.id, { provider, passwordEnabled: true }, Date.now());
    const vapid = await vapidKeys(store, Date.now);
    const otherSealed = async (db: Db) => {
      const sso = await db.selectFrom('team_sign_in').select('oidc_client_secret_sealed as sealed').where('team_id', '=', ssoTeam.id).executeTakeFirstOrThrow();
      const push = await db.selectFrom('web_push_keys').select('private_key as sealed').executeTakeFirstOrThrow();
      return [sso.sealed!, push.sealed];
    };
    const otherBefore = await otherSealed(store.db);

    const both = openStore({ dataDir, databaseUrl, pgSchema, secretKeys: [newKey, oldKey] });
    const onlyNew = openStore({ dataDir, databaseUrl, pgSchema, secretKeys: [newKey] });
    try {
      await expect(onlyNew.db.selectFrom('apps').select('secret').where('id', '=', app.id).execute()).rejects.toThrow(/AVIARY_SECRET_KEY/);
      await both.migrate();
      const after = await storedSecrets(both.db, app.id);
      expect(after.secret).not.toBe(before.secret);
      expect(await dumpApps(both.db)).not.toContain(app.secret);
      expect((await onlyNew.db.selectFrom('apps').select('secret').where('id', '=', app.id).executeTakeFirstOrThrow()).secret).toBe(app.secret);
      const otherAfter = await otherSealed(both.db);
      expect(otherAfter[0]).not.toBe(otherBefore[0]);
      expect(otherAfter[1]).not.toBe(otherBefore[1]);
      expect(otherAfter.map((sealed) => onlyNew.keyring.open(sealed))).toEqual(['sso-secret-in-clear', vapid.privateKey]);
    } finally {
      // Back to the server's own key, for the other tests of this file.
      const back = openStore({ dataDir, databaseUrl, pgSchema, secretKeys: [oldKey, newKey] });
      await back.migrate();
      await back.close();
      await both.close();
      await onlyNew.close();
    }
  });
});

describe('AVIARY_SECRET_KEY', () => {
  it('takes keys of 32 bytes in base64, the first sealing, and refuses any other without echoing it', () => {
    const [first, second] = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];
    expect(loadConfig({}, { AVIARY_SECRET_KEY: `${first}, ${second}` }).secretKeys).toEqual([first, second]);
    for (const wrong of ['hunter2-is-not-a-key', randomBytes(16).toString('base64'), `${first},not base64!`]) {
      const error = (() => {
        try {
          loadConfig({}, { AVIARY_SECRET_KEY: wrong });
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).setting).toBe('AVIARY_SECRET_KEY');
      expect((error as Error).message).not.toContain(wrong.split(',').at(-1));
    }
  });
});
