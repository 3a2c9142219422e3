import { api } from '@aviary/protocol';
import { unsaveMessage } from '../../../core/commands/saved.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.saved.remove, async ({ messageUid }, { user }, ctx) => {
  await unsaveMessage(ctx, user, { messageUid });
  return { messageUid };
});
