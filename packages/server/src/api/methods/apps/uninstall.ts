import { api } from '@aviary/protocol';
import { uninstallApp } from '../../../core/commands/installs.js';
import { defineHandler } from '../../handler.js';
import { byPerson, recordAudit } from '../../../core/audit/record.js';

export default defineHandler(api.apps.uninstall, async ({ appId }, { user, clientAddress }, ctx) => {
  await uninstallApp(ctx, { appId, userId: user.id });
  await recordAudit(ctx.db, { ...byPerson(user, clientAddress), at: ctx.now(), action: 'app.uninstalled', target: { kind: 'app', id: appId } });
  return { installed: false as const };
});
