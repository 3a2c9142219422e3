import { api } from '@aviary/protocol';
import { listSessions } from '../../../core/queries/sessions.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.sessions.list, async (_params, { user, sessionHash }, ctx) => ({
  sessions: await listSessions(ctx.db, user.id, sessionHash, ctx.now()),
}));
