import { isUserId, type ChatMessageDeletedEvent, type ChatMessageUpdatedEvent, type ChatReactionAddedEvent, type ChatReactionRemovedEvent } from '@aviary/protocol';
import { enqueueEvent } from '../../events/outbox/enqueue.js';
import type { MessagesTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import type { Effects } from '../effects/effects.js';

/** The Aviary extensions about a message that already exists. */
export type MessageChangeEvent = ChatMessageUpdatedEvent | ChatMessageDeletedEvent | ChatReactionAddedEvent | ChatReactionRemovedEvent;

/**
 * Tells the apps a message concerns that it changed, in the change's transaction: the app it was sent
 * through, and the app whose bot is in its direct chat (a bot reads nothing else of a channel). Never the
 * app whose token made the change (it knows), nor one a team admin disabled; and, as for every Aviary
 * extension, only an app that subscribed to the event (enqueueEvent asks).
 */
export async function enqueueMessageChangeEvents(
  tx: Tx,
  effects: Effects,
  message: Pick<MessagesTable, 'chat_key' | 'app_id'>,
  change: { event: MessageChangeEvent; byAppId: string | null },
  now: number,
): Promise<void> {
  const botIds = message.chat_key.split('|').filter((id) => isUserId(id));
  const bots =
    botIds.length === 2
      ? await tx.selectFrom('users').select('bot_app_id').where('id', 'in', botIds).where('bot_app_id', 'is not', null).execute()
      : [];
  const concerned = new Set([message.app_id, ...bots.map((bot) => bot.bot_app_id)]);
  concerned.delete(null);
  concerned.delete(change.byAppId);
  if (concerned.size === 0) return;
  const enabled = await tx.selectFrom('apps').select('id').where('id', 'in', [...concerned] as string[]).where('disabled_by_team', '=', 0).orderBy('id').execute();
  for (const { id: appId } of enabled) {
    const queued = await enqueueEvent(tx, { appId, userId: change.event.userId, event: change.event }, now);
    if (queued) effects.add({ kind: 'deliverEvents', appId, eventId: queued.eventId });
  }
}
