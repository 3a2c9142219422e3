import { api } from '@aviary/protocol';
import { installApp } from '../../../core/commands/installs.js';
import { defineHandler } from '../../handler.js';
import { byPerson } from '../../../core/audit/record.js';

/** The new token goes to the app only, in app.install: never to the person. */
export default defineHandler(api.apps.install, async ({ appId }, { user, clientAddress }, ctx) => {
  await installApp(ctx, byPerson(user, clientAddress).actor, { appId, userId: user.id });
  return { installed: true as const };
});
