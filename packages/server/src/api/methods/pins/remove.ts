import { api } from '@aviary/protocol';
import { changePin } from '../../../core/commands/pins.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.pins.remove, async ({ messageUid }, { user }, ctx) => {
  await changePin(ctx, user, { messageUid, pinned: false });
  return { messageUid };
});
