import { api } from '@aviary/protocol';
import { setAppDisabledByUser } from '../../../core/commands/installs.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.apps.enable, async ({ appId }, { user }, ctx) => {
  await setAppDisabledByUser(ctx, user, { appId, disabled: false });
  return { disabledByUser: false as const };
});
