import type { StreamLiveFrame } from '@aviary/protocol';

type PresenceFrame = Extract<StreamLiveFrame, { type: 'presence' }>;

/**
 * Who of the team is online, from the stream's presence frames (docs/reference/stream.md). After each
 * `hello` the server sends one frame listing everyone online: the first `online` frame after a hello
 * replaces what was known (people who left while the stream was down are dropped), later ones add, and
 * `away` frames remove. Until the first list, nobody's presence is known (`undefined`).
 */
export class PresenceTracker {
  private online: ReadonlySet<string> | undefined;
  private listDue = true;

  /** A stream (re)connected: its next `online` frame lists everyone online. */
  connected(): void {
    this.listDue = true;
  }

  apply(frame: PresenceFrame): ReadonlySet<string> | undefined {
    if (frame.status === 'online' && this.listDue) {
      this.listDue = false;
      this.online = new Set(frame.userIds);
    } else if (this.online) {
      const next = new Set(this.online);
      for (const userId of frame.userIds) {
        if (frame.status === 'online') next.add(userId);
        else next.delete(userId);
      }
      this.online = next;
    }
    return this.online;
  }
}
