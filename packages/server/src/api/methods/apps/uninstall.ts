import { api } from '@aviary/protocol';
import { uninstallApp } from '../../../core/commands/installs.js';
import { defineHandler } from '../../handler.js';
import { byPerson } from '../../../core/audit/record.js';

export default defineHandler(api.apps.uninstall, async ({ appId }, { user, clientAddress }, ctx) => {
  await uninstallApp(ctx, byPerson(user, clientAddress).actor, { appId, userId: user.id });
  return { installed: false as const };
});
