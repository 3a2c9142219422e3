import { lockMessages } from '../../store/rows/messages.js';
import type { UsersTable } from '../../store/schema.js';
import { findVisibleMessage, noSuchMessage } from '../interactions/visibleMessage.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';

/**
 * saved.add, saved.remove and saved.list: a person's own saved messages, private to them (no frame, no
 * event). Only a message they can see is saved; one they can no longer see (they left its channel)
 * stays saved but is left out of the list until they can see it again.
 */
export async function saveMessage(ctx: CommandContext, person: UsersTable, { messageUid }: { messageUid: string }): Promise<number> {
  const now = ctx.now();
  return runChange(ctx, async (tx) => {
    await lockMessages(tx, [messageUid], 'attach');
    const { row } = await findVisibleMessage(tx, person, messageUid);
    // A deleted thread parent, kept for its replies, is no message to save.
    if (row.deleted_at !== null) throw noSuchMessage(messageUid);
    await tx
      .insertInto('saved_items')
      .values({ user_id: person.id, message_uid: row.uid, team_id: row.team_id, saved_at: now })
      .onConflict((conflict) => conflict.columns(['user_id', 'message_uid']).doNothing())
      .execute();
    const saved = await tx.selectFrom('saved_items').select('saved_at').where('user_id', '=', person.id).where('message_uid', '=', row.uid).executeTakeFirstOrThrow();
    return Number(saved.saved_at);
  });
}

export async function unsaveMessage(ctx: CommandContext, person: UsersTable, { messageUid }: { messageUid: string }): Promise<void> {
  await runChange(ctx, async (tx) => {
    const deleted = await tx.deleteFrom('saved_items').where('user_id', '=', person.id).where('message_uid', '=', messageUid).executeTakeFirst();
    // Unsaving what was never saved: fine when the message is visible, "no such message" otherwise.
    if (Number(deleted.numDeletedRows) === 0) await findVisibleMessage(tx, person, messageUid);
  });
}
