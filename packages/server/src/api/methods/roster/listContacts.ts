import { api } from '@aviary/protocol';
import { presentPublicProfile } from '../../../core/presenters/users.js';
import { listContacts } from '../../../core/queries/roster.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.roster.listContacts, async (_params, caller, ctx) => (await listContacts(ctx.db, caller.user)).map(presentPublicProfile));
