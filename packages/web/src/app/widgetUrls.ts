import { eventTokenLifetimeSeconds } from '@aviary/protocol';
import { methods } from '../api/client';

export interface AttachmentWidgetView {
  url: string;
  width?: number | undefined;
  height?: number | undefined;
}

/** A URL is reused while its token has this much life left: a widget opened with it still works for a while. */
const reuseMarginMs = 60 * 60 * 1000;
/** Widgets remembered; the oldest are forgotten first. */
const maxRemembered = 200;

const remembered = new Map<string, { view: Promise<AttachmentWidgetView>; validUntil: number }>();

/**
 * The signed URL of an attachment's widget view, asked of the server once and kept while its token is
 * valid: a row of the history mounts again whenever it scrolls back into view or the chat is opened
 * again, and a new URL each time would reload the widget (and record another open in the app's
 * delivery log). Kept per person, so that another sign-in in the same page gets its own.
 */
export function attachmentWidgetView(personId: string, messageUid: string, attachmentId: string, now = Date.now()): Promise<AttachmentWidgetView> {
  const key = JSON.stringify([personId, messageUid, attachmentId]);
  const known = remembered.get(key);
  if (known && known.validUntil > now) return known.view;
  const view = methods.interactions.openAttachmentWidget({ messageUid, attachmentId }).then((answer) => {
    if (answer.kind !== 'attachmentWidget') throw new Error('The app did not give a widget.');
    return { url: answer.url, width: answer.width, height: answer.height };
  });
  remembered.delete(key);
  remembered.set(key, { view, validUntil: now + eventTokenLifetimeSeconds.widget * 1000 - reuseMarginMs });
  // A refusal is not kept: the next mount asks again.
  view.catch(() => remembered.delete(key));
  for (const oldest of remembered.keys()) {
    if (remembered.size <= maxRemembered) break;
    remembered.delete(oldest);
  }
  return view;
}
