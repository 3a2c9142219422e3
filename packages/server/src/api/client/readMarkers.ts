import { chatIdPattern, messageUidPattern } from '@aviary/protocol';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { markChatRead } from '../../core/commands/readMarkers.js';
import { invalidParameter } from '../errors.js';
import { signedInPerson } from '../session/auth.js';
import { bodyFields, requiredString } from './body.js';

/**
 * POST /api/client/conversations/read {chat, uid} → {chat, readUpTo, unread, mentions}: the person has
 * read `chat` up to message `uid`. Markers only move forward; the person's other streams get `chat.read`.
 */
export function registerReadMarkerRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/conversations/read', async (request) => {
    const person = signedInPerson(request);
    const fields = bodyFields(request);
    const chat = requiredString(fields, 'chat');
    if (!chatIdPattern.test(chat)) throw invalidParameter('chat', 'chat must be a user id (u:…) or a channel id (g:…), as the conversation list gives it.');
    const uid = requiredString(fields, 'uid');
    if (!messageUidPattern.test(uid)) throw invalidParameter('uid', 'uid must be a message uid (26 characters).');
    return markChatRead(ctx, person, chat, uid);
  });
}
