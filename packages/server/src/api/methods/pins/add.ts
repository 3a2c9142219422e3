import { api } from '@aviary/protocol';
import { changePin } from '../../../core/commands/pins.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.pins.add, async ({ messageUid }, { user }, ctx) => {
  const pinned = await changePin(ctx, user, { messageUid, pinned: true });
  return { messageUid, pinned: pinned! };
});
