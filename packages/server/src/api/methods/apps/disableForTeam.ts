import { api } from '@aviary/protocol';
import { setAppDisabledByTeam } from '../../../core/commands/installs.js';
import { defineHandler } from '../../handler.js';
import { byPerson, recordAudit } from '../../../core/audit/record.js';

/** A team admin's switch (PermissionDenied for anyone else). */
export default defineHandler(api.apps.disableForTeam, async ({ appId }, { user, clientAddress }, ctx) => {
  await setAppDisabledByTeam(ctx, { appId, adminId: user.id, disabled: true });
  await recordAudit(ctx.db, { ...byPerson(user, clientAddress), at: ctx.now(), action: 'app.disabledForTeam', target: { kind: 'app', id: appId } });
  return { disabledByTeam: true as const };
});
