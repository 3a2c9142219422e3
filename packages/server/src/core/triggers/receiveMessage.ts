import { isUserId, type ChatReceiveMessageEvent } from '@aviary/protocol';
import { enqueueEvent } from '../../events/outbox/enqueue.js';
import type { MessagesTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { presentMessage } from '../presenters/messages.js';
import { appsInChannel } from './channelEvents.js';

/**
 * `chat.receiveMessage` (docs/reference/events.md): a direct message to an app's bot, from anyone in the team
 * whether they installed the app or not, goes to the app's listener; so does a reply in a channel thread
 * whose parent the bot sent (on behalf of a member who installed its app), with `threadParent` set, while
 * the app still sees into the channel (appsInChannel: a member has it installed and enabled). Once nobody
 * there has it, the thread's replies stay in the channel. Runs inside the message's transaction, so the
 * event exists exactly when the message does. Returns the event enqueued, if any.
 */
export async function enqueueReceiveMessage(tx: Tx, message: MessagesTable, now: number, root?: MessagesTable): Promise<{ appId: string; eventId: string } | undefined> {
  const addressee = isUserId(message.to_id) ? message.to_id : root?.from_user_id;
  // A bot writing to itself would be told about its own words; other channel messages reach no bot.
  if (addressee === undefined || addressee === message.from_user_id) return undefined;
  if (message.visible_to !== null && !(JSON.parse(message.visible_to) as string[]).includes(addressee)) return undefined;
  // An app a team admin disabled hears nothing from the team.
  const recipient = await tx
    .selectFrom('users as u')
    .innerJoin('apps as a', 'a.id', 'u.bot_app_id')
    .select('a.id as appId')
    .where('u.id', '=', addressee)
    .where('a.disabled_by_team', '=', 0)
    .executeTakeFirst();
  const appId = recipient?.appId;
  if (!appId) return undefined;
  if (!isUserId(message.to_id) && !(await appsInChannel(tx, message.chat_key)).includes(appId)) return undefined;
  const event: ChatReceiveMessageEvent = {
    name: 'chat.receiveMessage',
    userId: message.from_user_id,
    message: presentMessage(message),
  };
  const enqueued = await enqueueEvent(tx, { appId, userId: message.from_user_id, event }, now);
  return enqueued && { appId, eventId: enqueued.eventId };
}
