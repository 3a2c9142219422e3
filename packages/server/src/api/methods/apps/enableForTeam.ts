import { api } from '@aviary/protocol';
import { setAppDisabledByTeam } from '../../../core/commands/installs.js';
import { defineHandler } from '../../handler.js';
import { byPerson, recordAudit } from '../../../core/audit/record.js';

/** A team admin's switch (PermissionDenied for anyone else). */
export default defineHandler(api.apps.enableForTeam, async ({ appId }, { user, clientAddress }, ctx) => {
  await setAppDisabledByTeam(ctx, { appId, adminId: user.id, disabled: false });
  await recordAudit(ctx.db, { ...byPerson(user, clientAddress), at: ctx.now(), action: 'app.enabledForTeam', target: { kind: 'app', id: appId } });
  return { disabledByTeam: false as const };
});
