import { useEffect, useState } from 'react';
import { methods, AviaryApiError, type Message } from '../api/client';

/** At most one read marker this often per chat, however busy it is: the newest position at the time. */
export const READ_MARKER_EVERY_MS = 3_000;

/**
 * While the chat is open and the page visible, what arrives from others is read: the marker follows the
 * newest message, sent at most every READ_MARKER_EVERY_MS (a busy channel makes one request every few
 * seconds, not one per message), always ending at the newest position, so that the `chat.read` frame
 * that follows the last marker leaves no stale unread count. A marker the server refuses for the rate
 * goes again after the time it names; leaving the chat sends what is still held at once.
 */
export function useReadMarker(chat: string, last: Message | undefined, unread: number, me: string): void {
  const visible = usePageVisible();
  const uid = last?.uid;
  const fromOthers = last !== undefined && last.from !== me;
  const [marker, setMarker] = useState(() => new ReadMarker(chat));
  if (marker.chat !== chat) setMarker(new ReadMarker(chat));
  useEffect(() => {
    openMarkers.set(marker.chat, marker);
    return () => {
      if (openMarkers.get(marker.chat) === marker) openMarkers.delete(marker.chat);
      marker.flush();
    };
  }, [marker]);
  useEffect(() => {
    if (uid && visible && (unread > 0 || fromOthers)) marker.markRead(uid);
  }, [marker, uid, visible, unread, fromOthers]);
}

/** The marker of each open chat, for forgetReadMarker. */
const openMarkers = new Map<string, ReadMarker>();

/**
 * The person was removed from the open chat: what its marker still holds is dropped, not sent as the
 * view closes (the server would refuse it, and the browser log the refusal).
 */
export function forgetReadMarker(chat: string): void {
  openMarkers.get(chat)?.forget();
}

/**
 * The person marks the open chat unread ("Mark unread"): nothing more is marked read while it stays
 * open, however it is scrolled or what comes; leaving it and coming back reads it again. Settles once a
 * marker already on its way is answered, so that the server cannot take it after the unread mark.
 */
export async function holdReadMarker(chat: string): Promise<void> {
  await openMarkers.get(chat)?.hold();
}

/** Whether the open chat was marked unread since it opened (holdReadMarker): what comes to it counts as unread. */
export const isReadHeld = (chat: string): boolean => openMarkers.get(chat)?.held === true;

function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  return visible;
}

/** One chat's markers: one request at a time, none sooner than READ_MARKER_EVERY_MS after the last. */
class ReadMarker {
  private wanted: string | undefined;
  private sent: string | undefined;
  private lastSentAt = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = false;
  /** Settles once the request under way, if any, has been answered. */
  private answered: Promise<unknown> = Promise.resolve();
  held = false;

  constructor(readonly chat: string) {}

  markRead(uid: string): void {
    if (this.held || (this.wanted !== undefined && uid <= this.wanted)) return;
    this.wanted = uid;
    this.schedule(0);
  }

  /** Marks nothing more read: what was wanted is not sent, and nothing later is; settles once a marker already on its way has its answer. */
  hold(): Promise<unknown> {
    this.held = true;
    this.forget();
    return this.answered;
  }

  /** Holds nothing more: what was wanted is never sent. */
  forget(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.sent = this.wanted;
  }

  /** Sends what is held now (the chat is being left), without waiting for the interval. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.wanted !== this.sent && !this.inFlight) this.send();
  }

  private schedule(extraDelayMs: number): void {
    if (this.timer !== undefined || this.inFlight || this.wanted === this.sent) return;
    const wait = Math.max(extraDelayMs, this.lastSentAt + READ_MARKER_EVERY_MS - Date.now());
    if (wait <= 0) this.send();
    else this.timer = setTimeout(() => {
      this.timer = undefined;
      this.send();
    }, wait);
  }

  private send(): void {
    const uid = this.wanted;
    if (uid === undefined) return;
    this.inFlight = true;
    this.lastSentAt = Date.now();
    let retryAfterMs = 0;
    this.answered = methods.chat
      .markRead({ chat: this.chat, uid })
      .then(
        () => void (this.sent = uid),
        (error: unknown) => {
          // Refused for the rate: again after the time the server names. Any other refusal only leaves the badge.
          if (error instanceof AviaryApiError && error.code === 'TooManyRequests') retryAfterMs = retryAfter(error) * 1000;
          else this.sent = uid;
        },
      )
      .finally(() => {
        this.inFlight = false;
        this.schedule(retryAfterMs);
      });
  }
}

function retryAfter(error: AviaryApiError): number {
  const seconds = (error.body as { retryAfter?: unknown }).retryAfter;
  return typeof seconds === 'number' && seconds > 0 ? seconds : READ_MARKER_EVERY_MS / 1000;
}
