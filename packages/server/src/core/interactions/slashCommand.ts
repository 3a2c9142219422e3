import type { ClientSlashCommandEvent, InteractionAnswer, ServiceClient } from '@aviary/protocol';
import type { CoreContext } from '../context.js';
import type { UsersTable } from '../../store/schema.js';
import { findSlashCommand } from '../integrations.js';
import { carryInteraction } from './carryInteraction.js';
import { commonAttributes, interactionChatOf } from './interactionChat.js';

export interface SlashCommandText {
  /** The name, without the slash. */
  command: string;
  /** What follows the name and the spaces after it; empty for `/name` alone. */
  text: string;
}

// docs/reference/integrations.md: letters, digits, `_` and `-`, starting with a letter or digit; then whitespace before the
// text. `/name` alone is a command with empty text (a command needs no argument); `/name/x` is not one.
const slashCommandPattern = /^\/([A-Za-z0-9][A-Za-z0-9_-]*)(?:\s+([\s\S]*))?$/;

/** The command a composer's text calls, if it is shaped like one. */
export function parseSlashCommand(text: string): SlashCommandText | undefined {
  const match = slashCommandPattern.exec(text);
  return match ? { command: match[1], text: match[2] ?? '' } : undefined;
}

export interface SlashCommandRun {
  appId: string;
  command: string;
  answer: InteractionAnswer;
}

/**
 * `client.slashCommand` to the installed, enabled app that has the command, typed in `chat` (the
 * composer's `to`). Undefined when no such app has it: the text is then an ordinary message.
 */
export async function runSlashCommand(
  ctx: CoreContext,
  person: UsersTable,
  input: SlashCommandText & { chat: string; client: ServiceClient },
): Promise<SlashCommandRun | undefined> {
  const found = await findSlashCommand(ctx.db, person.team_id, person.id, input.command);
  if (!found) return undefined;
  const interactionChat = await interactionChatOf(ctx.db, person, input.chat, 'to');
  const event: ClientSlashCommandEvent = { name: 'client.slashCommand', ...commonAttributes(interactionChat), command: input.command, text: input.text };
  const answer = await carryInteraction(ctx, { appId: found.app.id, action: found.command.action, event, client: input.client });
  return { appId: found.app.id, command: input.command, answer };
}
