import { api } from '@aviary/protocol';
import { resetPassword } from '../../../core/commands/accountLinks.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.users.resetPassword, async ({ linkToken, newPassword }, _caller, ctx) => resetPassword(ctx, linkToken, newPassword));
