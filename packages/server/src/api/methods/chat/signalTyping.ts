import { api } from '@aviary/protocol';
import { resolveReadableChat } from '../../../core/policies/chat.js';
import { publishLive } from '../../../core/stream/live.js';
import { defineHandler } from '../../handler.js';

/** Only for a chat the person reads; who gets it is decided by each process from its streams (api/stream/liveFrames.ts). */
export default defineHandler(api.chat.signalTyping, async ({ chat }, { user }, ctx) => {
  await resolveReadableChat(ctx.db, user, chat);
  publishLive(ctx.bus, user.team_id, { kind: 'typing', userId: user.id, chat });
  return {};
});
