import { api } from '@aviary/protocol';
import { setAppDisabledByUser } from '../../../core/commands/installs.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.apps.disable, async ({ appId }, { user }, ctx) => {
  await setAppDisabledByUser(ctx, user, { appId, disabled: true });
  return { disabledByUser: true as const };
});
