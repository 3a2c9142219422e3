import { responseUrlLimits, type ResponseType } from '@aviary/protocol';
import { ApiError, invalidParameter } from '../../errors.js';
import { hashToken } from '../../store/ids.js';
import type { ResponseUrlsTable, UsersTable } from '../../store/schema.js';
import type { CoreContext } from '../context.js';
import { sendMessage } from '../commands/sendMessage.js';
import { checkAttachments, checkServiceml } from '../messageContent.js';
import { updateMessage } from '../commands/updateMessage.js';
import { findUsableApp } from '../interactions/appAccess.js';
import { giveBackReply, isDirectChat, takeReply } from './responseUrls.js';

export interface ReplyInput {
  token: string;
  text: string;
  serviceml?: string;
  attachments?: unknown[];
  responseType?: ResponseType;
  replaceOriginal?: boolean;
}

/**
 * A reply through a response URL (docs/reference/events.md, "Replying later: responseUrl"), sent by the
 * app's bot with the rights it has now: the app still exists and is not disabled for the team or by the
 * person, the person is still active, and the bot may post where the reply goes (in a channel, on behalf
 * of the person, who must still be a member and have the app installed, as `onBehalfOf` asks). The
 * content is checked before a reply is taken; a refusal after that gives the reply back.
 */
export async function replyThroughResponseUrl(ctx: CoreContext, input: ReplyInput): Promise<{ uid: string; repliesLeft: number }> {
  checkServiceml(input.serviceml);
  checkAttachments(input.attachments, null);
  const url = await takeReply(ctx.db, input.token, ctx.now());
  try {
    const uid = await reply(ctx, url, input);
    return { uid, repliesLeft: responseUrlLimits.uses - url.uses };
  } catch (error) {
    if (error instanceof ApiError) await giveBackReply(ctx.db, hashToken(input.token));
    throw error;
  }
}

async function reply(ctx: CoreContext, url: ResponseUrlsTable, input: ReplyInput): Promise<string> {
  const person = await ctx.db.selectFrom('users').selectAll().where('id', '=', url.user_id).where('deactivated_at', 'is', null).executeTakeFirst();
  if (!person) throw new ApiError('PermissionDenied', `${url.user_id}, who acted, is no longer an active member of the team; the reply has nobody to go to.`);
  const { app, installed } = await findUsableApp(ctx.db, person, url.app_id, 'token').catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'InvalidParameter') throw new ApiError('UnknownResponseUrl', `The app of this response URL (${url.app_id}) was deleted.`, { parameter: 'token' });
    throw error;
  });
  if (app.bot_user_id === null) throw new ApiError('BotNotEnabled', `Replies through a response URL are sent by the app's bot, and ${app.name} has none; enable it (aviary app bot --enable, or the dashboard).`);
  const bot = await ctx.db.selectFrom('users').selectAll().where('id', '=', app.bot_user_id).executeTakeFirstOrThrow();
  const content = { text: input.text, serviceml: input.serviceml, attachments: input.attachments as Array<Record<string, unknown>> | undefined };
  if (input.replaceOriginal === true) {
    if (url.message_uid === null) {
      throw invalidParameter('replaceOriginal', `A ${url.event_name} event carries no message of the app's to replace: only an attachment button or a ServiceML <action> does. Leave replaceOriginal out to send a new message.`);
    }
    const { message } = await updateMessage(ctx, { user: bot, appId: app.id, kind: 'bot' }, { messageUid: url.message_uid, ...content });
    return message.uid;
  }
  const { message } = await sendMessage(ctx, { user: bot, appId: app.id }, { ...content, ...where(url, { person, bot, installed, appName: app.name }, input.responseType ?? 'ephemeral') });
  return message.uid;
}

interface Parties {
  person: UsersTable;
  bot: UsersTable;
  /** Whether the person installed the app: a bot posts in a channel only on behalf of a member who did. */
  installed: boolean;
  appName: string;
}

/**
 * Where a reply goes. In a channel: there, on behalf of the person (who installed the app), to them alone
 * when ephemeral. In a direct chat with the bot: there. Where the bot may not post (a direct chat between
 * two people; a channel, for a person who pressed a bot's button without installing the app), an
 * ephemeral reply goes to the person's direct chat with the bot, and one to the chat is refused.
 */
function where(url: ResponseUrlsTable, { person, bot, installed, appName }: Parties, responseType: ResponseType): { to: string; onBehalfOf?: string; visibleTo?: string[] } {
  const visibleTo = responseType === 'ephemeral' ? { visibleTo: [person.id] } : {};
  const inChannel = !isDirectChat(url.chat);
  if (inChannel && installed) return { to: url.chat, onBehalfOf: person.id, ...visibleTo };
  if (url.chat === bot.id || responseType === 'ephemeral') return { to: person.id, ...visibleTo };
  throw invalidParameter(
    'responseType',
    inChannel
      ? `${person.id} has not installed ${appName}, and its bot posts in a channel only on behalf of a member who did; reply with responseType "ephemeral", which goes to their direct chat with the bot.`
      : `The person acted in a direct chat with someone else, where an app's bot does not post; reply with responseType "ephemeral", which goes to their direct chat with the bot.`,
  );
}
