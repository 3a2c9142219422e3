import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../src/store/compiledOnce.js';
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
  });
}
