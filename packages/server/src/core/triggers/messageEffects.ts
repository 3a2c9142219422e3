import type { Effects } from '../effects/effects.js';
import type { MessagesTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { messageCreated } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import type { StreamEntryDraft } from '../../store/rows/streamEntries.js';
import { enqueueReceiveMessage } from './receiveMessage.js';
import { previewUrlsOf } from './requestUrlPreviews.js';

/** For a thread reply: the thread's root, its frames besides message.created, and who follows it (threads/replies.ts). */
export interface ThreadReply {
  root?: MessagesTable;
  entries?: StreamEntryDraft[];
  followers?: string[];
}

/**
 * What a new message sets off, whichever way it was sent (the /v1 method or the web client), recorded in
 * the message's transaction: `chat.receiveMessage` for a bot, enqueued with the message; URL previews,
 * started after the commit in the background so that the send is answered without waiting for any app;
 * and the `message.created` frame of the stream, last, as the stream asks.
 */
export async function recordMessageEffects(tx: Tx, effects: Effects, message: MessagesTable, now: number, thread: ThreadReply = {}): Promise<void> {
  const queued = await enqueueReceiveMessage(tx, message, now, thread.root);
  if (queued) effects.add({ kind: 'deliverEvents', ...queued });
  const urls = previewUrlsOf(message);
  if (urls.length > 0) effects.add({ kind: 'previewUrls', message, urls });
  const followers = thread.followers ?? [];
  if (message.chat_key.includes('|') || message.mentions !== null || followers.length > 0) effects.add({ kind: 'pushMessage', message, followers });
  await recordStreamEntries(tx, effects, message.team_id, [messageCreated(message), ...(thread.entries ?? [])], now);
}
