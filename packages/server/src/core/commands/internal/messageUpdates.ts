import type { MessagesTable } from '../../../store/schema.js';
import type { Tx } from '../../../store/store.js';
import type { Effects } from '../../effects/effects.js';
import { presentMessage } from '../../presenters/messages.js';
import { messageUpdated } from '../../stream/entries.js';
import { recordStreamEntries } from '../../stream/record.js';
import { enqueueMessageChangeEvents } from '../../triggers/messageEvents.js';

/**
 * A message changed (an edit, a file deleted out of it), in the change's transaction: its
 * `message.updated` frame for those who see it live or replay the stream, and chat.messageUpdated for
 * the apps it concerns that subscribe (never the app `byAppId` whose token made the change).
 */
export async function recordMessageUpdate(
  tx: Tx,
  effects: Effects,
  message: MessagesTable,
  change: { userId: string; byAppId: string | null },
  now: number,
): Promise<void> {
  const event = { name: 'chat.messageUpdated' as const, userId: change.userId, message: presentMessage(message) };
  await enqueueMessageChangeEvents(tx, effects, message, { event, byAppId: change.byAppId }, now);
  await recordStreamEntries(tx, effects, message.team_id, [messageUpdated(message)], now);
}
