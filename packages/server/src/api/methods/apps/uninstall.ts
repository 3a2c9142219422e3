import { api } from '@aviary/protocol';
import { uninstallApp } from '../../../core/commands/installs.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.apps.uninstall, async ({ appId }, { user }, ctx) => {
  await uninstallApp(ctx, { appId, userId: user.id });
  return { installed: false as const };
});
