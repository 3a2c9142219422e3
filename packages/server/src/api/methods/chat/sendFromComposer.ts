import { api } from '@aviary/protocol';
import { sendMessage } from '../../../core/commands/sendMessage.js';
import { parseSlashCommand, runSlashCommand } from '../../../core/interactions/slashCommand.js';
import { presentMessage } from '../../../core/presenters/messages.js';
import { defineHandler } from '../../handler.js';

/**
 * Sends as the person (no app), unless the text calls a slash command: a plain-text message shaped like
 * `/name text` whose name an installed app has becomes `client.slashCommand` instead. With ServiceML or
 * an attachment it is a message: a command carries text only.
 */
export default defineHandler(api.chat.sendFromComposer, async (params, caller, ctx) => {
  const { client = 'desktop', ...content } = params;
  const called = content.serviceml === undefined && content.attachments === undefined && content.files === undefined ? parseSlashCommand(content.text) : undefined;
  const command = called && (await runSlashCommand(ctx, caller.user, { ...called, chat: content.to, client }));
  if (command) return { slashCommand: { appId: command.appId, command: command.command }, answer: command.answer };
  const { message } = await sendMessage(ctx, { user: caller.user, appId: null }, content);
  return { message: presentMessage(message) };
});
