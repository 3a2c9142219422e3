import { api } from '@aviary/protocol';
import { reactivateFromConsole } from '../../../core/commands/administerPeople.js';
import { requireTeamAdmin } from '../../../core/policies/admin.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.admin.reactivatePerson, async ({ userId }, { user, clientAddress }, ctx) => {
  requireTeamAdmin(user, 'reactivate a person');
  return { person: await reactivateFromConsole(ctx, { admin: user, address: clientAddress }, { userId }) };
});
