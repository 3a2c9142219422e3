import type { CoreContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { checkContent } from '../messageContent.js';
import { storeMessage, type Sender, type SendMessageInput, type SentMessage } from './internal/messageSending.js';

export type { Sender, SendMessageInput, SentMessage };

/**
 * Sends a message as `sender`'s user (a person, or a bot for a bot token) through its app (none for the
 * web client). Content is checked first, then in ONE transaction: who may be named, where the sender may
 * post, the client-id repeat check, the insert and what the message sets off (`recordMessageEffects`) —
 * so no rule can change between check and write, and the bot's event exists exactly when the message does.
 */
export async function sendMessage(ctx: CoreContext, sender: Sender, input: SendMessageInput): Promise<SentMessage> {
  const content = checkContent(input, sender.appId);
  return runChange(ctx, (tx, effects) => storeMessage(ctx, tx, effects, sender, input, content));
}
