import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../src/store/compiledOnce.js';
import { openStore } from '../../src/store/store.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { createTestStore, type TestStore } from '../helpers/store.js';

const usersOfTeam = compiledOnce((db, p: { teamId: string; lastName: string }) =>
  db.selectFrom('users').select('id').where('team_id', '=', p.teamId).where('last_name', '=', p.lastName).where('deactivated_at', 'is', null),
);

for (const dialect of dialects) {
  describe(`compiledOnce [${dialect}]`, () => {
    let testStore: TestStore;
    beforeAll(async () => {
      testStore = await createTestStore(dialect);
    });
    afterAll(() => testStore.destroy());

    it('runs the query compiled on first use with each call’s values, in and out of transactions', async () => {
      const f = factories(testStore.store.db);
      const team = await f.team();
      const ann = await f.person(team.id, { lastName: 'Ann' });
      const bob = await f.person(team.id, { lastName: 'Bob' });
      expect(await usersOfTeam(testStore.store.db, { teamId: team.id, lastName: 'Ann' })).toEqual([{ id: ann.id }]);
      await testStore.store.db.transaction().execute(async (tx) => {
        expect(await usersOfTeam(tx, { teamId: team.id, lastName: 'Bob' })).toEqual([{ id: bob.id }]);
      });
      expect(await usersOfTeam(testStore.store.db, { teamId: 't:none', lastName: 'Ann' })).toEqual([]);
    });

    it('refuses a value that would shape the query instead of filling a parameter', async () => {
      const shaped = compiledOnce((db, p: { column: 'id' | 'email' }) => db.selectFrom('users').select(p.column));
      await expect(shaped(testStore.store.db, { column: 'id' })).rejects.toThrow(/column did not become a query parameter/);
    });

    it('answers rows as a plain query would, a column named __proto__ an own property, and a column added later', async () => {
      const f = factories(testStore.store.db);
      const team = await f.team();
      const cy = await f.person(team.id, { lastName: 'Cy' });
      const wide = compiledOnce((db, p: { id: string }) => db.selectFrom('users').selectAll().select(sql<null>`null`.as('blank')).where('id', '=', p.id));
      const plain = await sql<Record<string, unknown>>`select *, null as blank from users where id = ${cy.id}`.execute(testStore.store.db);
      const [row] = await wide(testStore.store.db, { id: cy.id });
      expect(row).toEqual(plain.rows[0]);
      expect(Object.keys(row!)).toEqual(Object.keys(plain.rows[0]!));

      const odd = compiledOnce((db, p: { id: string }) => db.selectFrom('users').select('id').select(sql<string>`'odd'`.as('__proto__')).where('id', '=', p.id));
      const [oddRow] = await odd(testStore.store.db, { id: cy.id });
      expect(Object.getPrototypeOf(oddRow)).toBe(Object.prototype);
      expect(oddRow!.id).toBe(cy.id);

      // The schema changes under the statement (a migration in the same process): the row has the new column.
      await sql`alter table users add column later_added text default 'yes'`.execute(testStore.store.db);
      const [after] = await wide(testStore.store.db, { id: cy.id });
      expect(after).toMatchObject({ id: cy.id, later_added: 'yes', blank: null });

      // Again inside a transaction: on PostgreSQL the refusal breaks it; the next call prepares the statement anew.
      await sql`alter table users add column added_again text default 'again'`.execute(testStore.store.db);
      const inTransaction = testStore.store.db.transaction().execute((tx) => wide(tx, { id: cy.id }));
      if (dialect === 'postgres') await expect(inTransaction).rejects.toThrow(/cached plan must not change result type/);
      else expect(await inTransaction).toEqual([expect.objectContaining({ added_again: 'again' })]);
      expect(await wide(testStore.store.db, { id: cy.id })).toEqual([expect.objectContaining({ later_added: 'yes', added_again: 'again' })]);
    });
  });
}

describe('compiledOnce on PostgreSQL: a named prepared statement', () => {
  let testStore: TestStore;
  beforeAll(async () => {
    testStore = await createTestStore('postgres');
  });
  afterAll(() => testStore.destroy());

  it('is parsed once by the connection and run by name after', async () => {
    // One connection, so that its own prepared statements are the ones listed.
    const store = openStore({ dataDir: testStore.dataDir, databaseUrl: testStore.databaseUrl, pgSchema: testStore.pgSchema, pgPoolSize: 1 });
    try {
      const team = await factories(store.db).team();
      const ann = await factories(store.db).person(team.id, { lastName: 'Ann' });
      for (let i = 0; i < 3; i++) expect(await usersOfTeam(store.db, { teamId: team.id, lastName: 'Ann' })).toEqual([{ id: ann.id }]);
      const prepared = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(store.db);
      const ours = prepared.rows.filter((row) => row.statement.includes('"last_name"'));
      expect(ours).toHaveLength(1);
      expect(ours[0]!.name).toMatch(/^aviary_\d+$/);
    } finally {
      await store.close();
    }
  });
});
