import { api } from '@aviary/protocol';
import { installApp } from '../../../core/commands/installs.js';
import { defineHandler } from '../../handler.js';
import { byPerson, recordAudit } from '../../../core/audit/record.js';

/** The new token goes to the app only, in app.install: never to the person. */
export default defineHandler(api.apps.install, async ({ appId }, { user, clientAddress }, ctx) => {
  await installApp(ctx, { appId, userId: user.id });
  await recordAudit(ctx.db, { ...byPerson(user, clientAddress), at: ctx.now(), action: 'app.installed', target: { kind: 'app', id: appId } });
  return { installed: true as const };
});
