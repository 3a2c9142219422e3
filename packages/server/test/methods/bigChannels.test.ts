import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addChannelMembers, createChannel, removeChannelMembers } from '../../src/core/commands/channels.js';
import { storeContext } from '../../src/core/context.js';
import { inBatches } from '../../src/store/batches.js';
import type { UsersTable } from '../../src/store/schema.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { createTestStore, type TestStore } from '../helpers/store.js';

const people = 100_000;

describe('statements within each dialect’s limit on parameters', () => {
  it('slices a list by the parameters each item binds, never leaving an empty slice', () => {
    expect(inBatches([1, 2, 3, 4, 5], 2, 4)).toEqual([[1, 2], [3, 4], [5]]);
    expect(inBatches([1, 2, 3], 5, 4)).toEqual([[1], [2], [3]]);
    expect(inBatches([], 1)).toEqual([]);
    expect(inBatches(Array.from({ length: 65_536 }, (_, i) => i), 1).every((batch) => batch.length <= 32_766)).toBe(true);
  });
});

describe.each(dialects)('[%s] a channel of 100,000 members', (dialect) => {
  let testStore: TestStore;
  let actor: UsersTable;
  let ids: string[];

  beforeAll(async () => {
    testStore = await createTestStore(dialect);
    const { db } = testStore.store;
    const f = factories(db);
    const team = await f.team();
    actor = await f.person(team.id);
    // In bulk: 100,000 people made one by one would measure the making.
    const now = Date.now();
    ids = Array.from({ length: people }, (_, i) => `u:big${String(i).padStart(13, '0')}`);
    await db.transaction().execute(async (tx) => {
      for (const batch of inBatches(ids, 13)) {
        await tx
          .insertInto('users')
          .values(batch.map((id, i) => ({ id, team_id: team.id, first_name: 'Big', last_name: `${i}`, email: `${id.slice(2)}@example.test`, role: 'user' as const, timezone: '+00:00', profile_image: null, password_hash: null, bot_app_id: null, deactivated_at: null, created_at: now })))
          .execute();
      }
    });
  }, 120_000);
  afterAll(async () => {
    await testStore?.destroy();
  });

  const memberCount = async (channelId: string) =>
    Number((await testStore.store.db.selectFrom('channel_members').select((eb) => eb.fn.countAll<number>().as('n')).where('channel_id', '=', channelId).executeTakeFirstOrThrow()).n);

  it('is created, loses 66,000 members and takes them back (more ids than one statement of either dialect takes)', async () => {
    const ctx = storeContext(testStore.store.db);
    const { channel, members } = await createChannel(ctx, { user: actor, appId: null }, { name: 'everyone', type: 'public', members: ids });
    expect(Object.values(members).filter((member) => member.status === 'added')).toHaveLength(people);
    expect(await memberCount(channel.id)).toBe(people + 1);

    const leaving = ids.slice(0, 66_000);
    const removed = await removeChannelMembers(ctx, { user: actor, appId: null }, { channelId: channel.id, members: leaving });
    expect(Object.values(removed).every((member) => member.status === 'removed')).toBe(true);
    expect(await memberCount(channel.id)).toBe(people + 1 - leaving.length);

    const back = await addChannelMembers(ctx, { user: actor, appId: null }, { channelId: channel.id, members: [...leaving, ids[99_999]] });
    expect(Object.values(back).filter((member) => member.status === 'added')).toHaveLength(leaving.length);
    expect(back[ids[99_999]]).toEqual({ status: 'failed', error: 'AlreadyMember' });
    expect(await memberCount(channel.id)).toBe(people + 1);
  }, 120_000);
});
