import { api } from '@aviary/protocol';
import { setAppDisabledByTeam } from '../../../core/commands/installs.js';
import { defineHandler } from '../../handler.js';

/** A team admin's switch (PermissionDenied for anyone else). */
export default defineHandler(api.apps.disableForTeam, async ({ appId }, { user, clientAddress }, ctx) => {
  await setAppDisabledByTeam(ctx, { admin: user, address: clientAddress }, { appId, disabled: true });
  return { disabledByTeam: true as const };
});
