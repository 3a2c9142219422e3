import { api } from '@aviary/protocol';
import { presentUser } from '../../../core/presenters/users.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.users.getInfo, async (_params, caller, ctx) => presentUser(caller.user, ctx.now()));
