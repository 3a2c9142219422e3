import { clientRoutes } from '@aviary/protocol';
import { resolveReadableChat } from '../../../core/policies/chat.js';
import { publishLive } from '../../../core/stream/live.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** Only for a chat the person reads; who gets it is decided by each process from its streams (api/stream/liveFrames.ts). */
export default defineRouteHandler(clientRoutes.signalTyping, async ({ chat }, person, ctx) => {
  await resolveReadableChat(ctx.db, person, chat);
  publishLive(ctx.bus, person.team_id, { kind: 'typing', userId: person.id, chat });
  return {};
});
