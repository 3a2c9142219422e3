import type { api, ParamsOf } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import { editMessage } from '../../store/rows/messages.js';
import type { MessagesTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { findVisibleMessage, noSuchMessage } from '../interactions/visibleMessage.js';
import { checkEditWindow, type MessageChanger } from '../policies/messageChanges.js';
import { checkAttachments, checkServiceml } from '../messageContent.js';
import { recordMessageUpdate } from './internal/messageUpdates.js';

export type UpdateMessageInput = ParamsOf<typeof api.chat.updateMessage>;

/** Who edits: the token's user or bot and the app the token is of, or a person for themselves (no app). */
export type Editor = MessageChanger;

/**
 * The sender's edit of a message (chat.updateMessage), in one transaction with its `message.updated`
 * frame, so that everyone who sees the message live, or replays the stream later, gets the new text.
 * The text and its ServiceML form are replaced together; the attachments only when given. Mentions,
 * visibleTo, notification and sendAs stay as sent, and an edit asks for no URL previews. What the message
 * said before is kept for team admins; the apps it concerns get chat.messageUpdated when they subscribe.
 */
export async function updateMessage(ctx: CommandContext, editor: Editor, input: UpdateMessageInput): Promise<{ message: MessagesTable; editedAt: number }> {
  checkServiceml(input.serviceml);
  const attachments = checkAttachments(input.attachments, editor.appId);
  return runChange(ctx, async (tx, effects) => {
    const now = ctx.now();
    await findEditableMessage(tx, editor, input.messageUid, now);
    const message = await editMessage(tx, input.messageUid, {
      text: input.text,
      serviceml: input.serviceml ?? null,
      edited_at: now,
      edited_by: editor.user.id,
      ...(attachments !== undefined ? { attachments: attachments.length > 0 ? JSON.stringify(attachments) : null } : {}),
    });
    await recordMessageUpdate(tx, effects, message, { userId: editor.user.id, byAppId: editor.appId }, now);
    return { message, editedAt: now };
  });
}

/**
 * A message the editor may change: one its user or bot sent through the same app (a person: one they sent
 * themselves, through no app). A message the editor
 * cannot see (another team's, a chat they do not read, hidden by visibleTo, unknown) is the same "no such
 * message" as elsewhere; one they see but did not send this way is PermissionDenied, and so is one sent
 * before the team's edit window. A bot is a member of
 * no channel, so it sees the channel messages it sent itself and nothing else of a channel.
 */
async function findEditableMessage(db: Db, editor: Editor, uid: string, now: number): Promise<void> {
  const row = await db
    .selectFrom('messages')
    .select(['uid', 'from_user_id', 'app_id', 'timestamp', 'deleted_at'])
    .where('uid', '=', uid)
    .where('team_id', '=', editor.user.team_id)
    .executeTakeFirst();
  if (!row || row.deleted_at !== null) throw noSuchMessage(uid);
  const ownBotMessage = editor.kind === 'bot' && row.from_user_id === editor.user.id;
  if (!ownBotMessage) await findVisibleMessage(db, editor.user, uid);
  if (row.from_user_id !== editor.user.id) {
    const who = editor.kind === 'person' ? 'a person edits only their own messages' : `a token edits only the messages its own ${editor.kind} sent`;
    throw new ApiError('PermissionDenied', `Message ${uid} was sent by someone else; ${who}.`, { parameter: 'messageUid' });
  }
  if (row.app_id !== editor.appId) throw sentElsewhere(uid, row.app_id, editor);
  await checkEditWindow(db, editor, row, now, 'edit');
}

function sentElsewhere(uid: string, appId: string | null, editor: Editor): ApiError {
  const through = appId === null ? 'from the web client' : editor.appId === null ? 'through an app' : 'through another app';
  const only = editor.appId === null ? 'only that app’s token edits it' : 'only a token of the app that sent a message edits it';
  return new ApiError('PermissionDenied', `Message ${uid} was sent ${through}; ${only}.`, { parameter: 'messageUid' });
}
