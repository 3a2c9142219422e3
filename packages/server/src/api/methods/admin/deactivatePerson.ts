import { api } from '@aviary/protocol';
import { deactivateFromConsole } from '../../../core/commands/administerPeople.js';
import { requireTeamAdmin } from '../../../core/policies/admin.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.admin.deactivatePerson, async ({ userId }, { user, clientAddress }, ctx) => {
  requireTeamAdmin(user, 'deactivate a person');
  return { person: await deactivateFromConsole(ctx, { admin: user, address: clientAddress }, { userId }) };
});
