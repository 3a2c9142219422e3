import type { CoreContext } from '../context.js';
import { streamTopic } from '../stream/record.js';
import { sendDueMail } from '../mail/sender.js';
import { pushForMessage } from '../push/pushMessage.js';
import { requestUrlPreviews } from '../triggers/requestUrlPreviews.js';
import { credentialsTopic, encodeCredentialsNotice } from './credentialsNotice.js';
import type { Effect } from './effects.js';

/**
 * What the server's `afterCommit` does: wakes the delivery worker once, starts previews as background
 * work, announces each team's newest stream position once on the bus, and announces ended credentials.
 */
export function carryOutEffects(ctx: CoreContext, effects: readonly Effect[], requestId?: string): void {
  let wake = false;
  let mail = false;
  const streamPositions = new Map<string, number>();
  for (const effect of effects) {
    switch (effect.kind) {
      case 'deliverEvents':
        wake = true;
        ctx.events.deliveryChanged(effect.appId, [effect.eventId]);
        break;
      case 'previewUrls': {
        const { message, urls } = effect;
        ctx.background.run(`URL preview of message ${message.uid}`, () => requestUrlPreviews(requestId === undefined ? ctx : { ...ctx, requestId }, message, urls));
        break;
      }
      case 'streamNotice':
        if (effect.entries) ctx.committedEntries?.remember(effect.teamId, effect.entries);
        streamPositions.set(effect.teamId, Math.max(effect.seq, streamPositions.get(effect.teamId) ?? 0));
        break;
      case 'credentialsEnded':
        ctx.bus.publish(credentialsTopic, encodeCredentialsNotice(effect.notice));
        break;
      case 'sendMail':
        mail = true;
        break;
      case 'pushMessage': {
        const { presence } = ctx;
        if (presence) ctx.background.run(`Web Push for message ${effect.message.uid}`, () => pushForMessage(ctx, presence, effect.message, effect.followers));
        break;
      }
    }
  }
  if (mail) ctx.background.run('sending mail', () => sendDueMail(ctx));
  if (wake) ctx.events.wake();
  for (const [teamId, seq] of streamPositions) ctx.bus.publish(streamTopic(teamId), String(seq));
}
