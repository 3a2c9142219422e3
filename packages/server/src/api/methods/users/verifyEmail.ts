import { api } from '@aviary/protocol';
import { verifyEmail } from '../../../core/commands/accountLinks.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.users.verifyEmail, async (params, caller, ctx) => verifyEmail(ctx, caller, params));
