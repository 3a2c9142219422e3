import { api, type ParamsOf } from '@aviary/protocol';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { sendMessage, type SendMessageInput } from '../../core/commands/sendMessage.js';
import { parseSlashCommand, runSlashCommand } from '../../core/interactions/slashCommand.js';
import { resolveReadableChat } from '../../core/policies/chat.js';
import { presentMessage } from '../../core/presenters/messages.js';
import { DEFAULT_PAGE_SIZE, fetchHistoryPage } from '../../core/queries/messages.js';
import type { UsersTable } from '../../store/schema.js';
import { decodeParams } from '../params.js';
import { signedInPerson } from '../session/auth.js';
import { bodyFields, queryFields, requiredString, serviceClient, type Fields } from './body.js';

/** What a person may send from the composer: the parameters of chat.sendMessage an app has to itself are left out. */
const composerFields = ['to', 'text', 'serviceml', 'attachments', 'id'] as const;

/**
 * GET /api/client/messages?chat=&before=&after=&limit= — a page of history, newest first, with the
 * visibility rules of chat.fetchMessages. POST /api/client/messages {to, text, serviceml?, attachments?,
 * id?, client?} — sends as the person (no app), unless the text calls a slash command.
 */
export function registerMessageRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/messages', async (request) => {
    const person = signedInPerson(request);
    const query = queryFields(request);
    const params = decodeParams(api.chat.fetchMessages, pick(query, ['chat', 'before', 'after', 'limit'])) as ParamsOf<typeof api.chat.fetchMessages>;
    const chatKey = await resolveReadableChat(ctx.db, person, params.chat);
    const rows = await fetchHistoryPage(ctx.db, chatKey, person.id, {
      before: params.before,
      after: params.after,
      limit: params.limit ?? DEFAULT_PAGE_SIZE,
    });
    return { messages: rows.map(presentMessage) };
  });

  app.post('/messages', async (request) => {
    const person = signedInPerson(request);
    const fields = bodyFields(request);
    const command = await trySlashCommand(ctx, person, fields);
    if (command) return { slashCommand: { appId: command.appId, command: command.command }, answer: command.answer };
    const params = decodeParams(api.chat.sendMessage, pick(fields, composerFields)) as SendMessageInput;
    const { message } = await sendMessage(ctx, person, null, params);
    return { message: presentMessage(message) };
  });
}

/**
 * A plain-text message shaped like `/name text` whose name an installed app has becomes
 * `client.slashCommand` instead of a message. With ServiceML or an attachment it is a message: a
 * command carries text only.
 */
async function trySlashCommand(ctx: ServerContext, person: UsersTable, fields: Fields) {
  if (typeof fields.text !== 'string' || fields.serviceml != null || fields.attachments != null) return undefined;
  const called = parseSlashCommand(fields.text);
  if (!called) return undefined;
  return runSlashCommand(ctx, person, { ...called, chat: requiredString(fields, 'to'), client: serviceClient(fields) });
}

function pick(fields: Fields, names: readonly string[]): Fields {
  return Object.fromEntries(names.filter((name) => fields[name] !== undefined).map((name) => [name, fields[name]]));
}
