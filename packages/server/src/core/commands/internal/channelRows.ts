import type { Tx } from '../../../store/store.js';

/** How many members a channel has, in the transaction of the command that changes them (channels.ts, invitations.ts). */
export async function memberCount(tx: Tx, channelId: string): Promise<number> {
  const { count } = await tx
    .selectFrom('channel_members')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('channel_id', '=', channelId)
    .executeTakeFirstOrThrow();
  return Number(count);
}
