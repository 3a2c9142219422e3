import { api } from '@aviary/protocol';
import { listSaved } from '../../../core/queries/saved.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.saved.list, async ({ cursor, limit }, { user }, ctx) => listSaved(ctx.db, user, { cursor, limit: limit ?? 50 }));
