import { api } from '@aviary/protocol';
import { adminPasswordReset } from '../../../core/commands/administerPeople.js';
import { requireTeamAdmin } from '../../../core/policies/admin.js';
import { defineHandler } from '../../handler.js';

/** A link to hand over, or (email: true, with SMTP) the link mailed to the person. */
export default defineHandler(api.admin.resetPassword, async ({ userId, email }, { user, clientAddress }, ctx) => {
  requireTeamAdmin(user, 'reset another person’s password');
  return adminPasswordReset(ctx, { admin: user, address: clientAddress }, { userId, email: email === true });
});
