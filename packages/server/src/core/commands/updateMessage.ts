import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { checkEditContent, storeMessageUpdate, type Editor, type UpdatedMessage, type UpdateMessageInput } from './internal/messageUpdates.js';

export type { Editor, UpdateMessageInput };

/**
 * The sender's edit of a message (chat.updateMessage). Its content is checked first, before any
 * transaction opens; then the edit is written in one transaction with its `message.updated`
 * frame, so that everyone who sees the message live, or replays the stream later, gets the new text.
 * The text and its ServiceML form are replaced together; the attachments only when given. Mentions,
 * visibleTo, notification and sendAs stay as sent, and an edit asks for no URL previews. What the message
 * said before is kept for team admins; the apps it concerns get chat.messageUpdated when they subscribe.
 */
export async function updateMessage(ctx: CommandContext, editor: Editor, input: UpdateMessageInput): Promise<UpdatedMessage> {
  const attachments = checkEditContent(input, editor.appId);
  return runChange(ctx, (tx, effects) => storeMessageUpdate(ctx, tx, effects, editor, input, attachments));
}
