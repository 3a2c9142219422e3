import type { CoreContext } from '../context.js';
import type { MessagesTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { enqueueReceiveMessage } from './receiveMessage.js';
import { requestUrlPreviews, previewUrlsOf } from './requestUrlPreviews.js';

export interface MessageTriggers {
  /** Pass to sendMessage: runs in the message's transaction. */
  afterInsert(tx: Tx, message: MessagesTable): Promise<void>;
  /** Call once sendMessage has returned (the message is committed); does nothing for a repeated client id. */
  afterCommit(): void;
}

/**
 * What a new message sets off, for every way of sending one (the /v1 method and the web client):
 * `chat.receiveMessage` for a bot, enqueued with the message, then woken after the commit; and URL
 * previews, started in the background so that the send is answered without waiting for any app.
 */
export function messageTriggers(ctx: CoreContext): MessageTriggers {
  let stored: MessagesTable | undefined;
  let enqueued = false;
  return {
    async afterInsert(tx, message) {
      stored = message;
      enqueued = await enqueueReceiveMessage(tx, message, ctx.now());
    },
    afterCommit() {
      if (!stored) return;
      const message = stored;
      if (enqueued) ctx.events.wake();
      const urls = previewUrlsOf(message);
      if (urls.length > 0) ctx.background.run(`URL preview of message ${message.uid}`, () => requestUrlPreviews(ctx, message, urls));
    },
  };
}
