import { describe, expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { teamWithApp } from '../helpers/factories.js';

forEachDialect('users.getInfo', (t) => {
  it('answers for the token’s own user', async () => {
    const { people } = await teamWithApp(t().testStore.store.db, 1);
    const me = await t().client(people[0].token).users.getInfo();
    expect(me.id).toBe(people[0].id);
    const raw = await t().call('users.getInfo', { query: { token: people[0].token } });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('x-request-id')).toMatch(/^req_/);
  });
});
