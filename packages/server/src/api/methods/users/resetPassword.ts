import { api } from '@aviary/protocol';
import { resetPassword } from '../../../core/commands/accountLinks.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.users.resetPassword, async ({ linkToken, newPassword }, { clientAddress }, ctx) => resetPassword(ctx, { address: clientAddress }, { linkToken, newPassword }));
