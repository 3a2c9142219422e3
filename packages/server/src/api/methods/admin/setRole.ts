import { api } from '@aviary/protocol';
import { setPersonRole } from '../../../core/commands/administerPeople.js';
import { requireTeamAdmin } from '../../../core/policies/admin.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.admin.setRole, async ({ userId, role }, { user, clientAddress }, ctx) => {
  requireTeamAdmin(user, 'change a person’s role');
  return { person: await setPersonRole(ctx, { admin: user, address: clientAddress }, { userId, role }) };
});
