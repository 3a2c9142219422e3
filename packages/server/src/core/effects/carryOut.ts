import type { CoreContext } from '../context.js';
import { requestUrlPreviews } from '../triggers/requestUrlPreviews.js';
import type { Effect } from './effects.js';

/** What the server's `afterCommit` does: wakes the delivery worker once, starts previews as background work. */
export function carryOutEffects(ctx: CoreContext, effects: readonly Effect[]): void {
  let wake = false;
  for (const effect of effects) {
    switch (effect.kind) {
      case 'deliverEvents':
        wake = true;
        break;
      case 'previewUrls': {
        const { message, urls } = effect;
        ctx.background.run(`URL preview of message ${message.uid}`, () => requestUrlPreviews(ctx, message, urls));
        break;
      }
    }
  }
  if (wake) ctx.events.wake();
}
