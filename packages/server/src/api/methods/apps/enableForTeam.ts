import { api } from '@aviary/protocol';
import { setAppDisabledByTeam } from '../../../core/commands/installs.js';
import { defineHandler } from '../../handler.js';

/** A team admin's switch (PermissionDenied for anyone else). */
export default defineHandler(api.apps.enableForTeam, async ({ appId }, { user, clientAddress }, ctx) => {
  await setAppDisabledByTeam(ctx, { admin: user, address: clientAddress }, { appId, disabled: false });
  return { disabledByTeam: false as const };
});
