import { api } from '@aviary/protocol';
import { presentChannel } from '../../../core/presenters/channels.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.channels.list, async (_params, caller, ctx) => {
  const rows = await ctx.db
    .selectFrom('channels as c')
    .innerJoin('channel_members as mine', 'mine.channel_id', 'c.id')
    .selectAll('c')
    .select((eb) =>
      eb.selectFrom('channel_members as m').select(eb.fn.countAll<number>().as('count')).whereRef('m.channel_id', '=', 'c.id').as('memberCount'),
    )
    .where('mine.user_id', '=', caller.user.id)
    .execute();
  // Sorted here rather than in SQL: the two dialects collate text differently, and the order must not depend on it.
  rows.sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
  return rows.map(({ memberCount, ...channel }) => presentChannel(channel, Number(memberCount)));
});
