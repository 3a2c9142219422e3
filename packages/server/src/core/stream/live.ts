import type { PresenceStatus } from '@aviary/protocol';
import type { Bus } from '../../bus/bus.js';

/**
 * What goes to people's streams without being kept (typing, presence): published on the bus to every
 * process with streams of the team, handed to the streams it concerns there, never stored in the
 * stream's entries nor replayed. Lost while Redis is down, like any notice, and nothing depends on it.
 */
export type LiveNotice =
  | { kind: 'typing'; userId: string; chat: string }
  | { kind: 'presence'; status: PresenceStatus; userIds: string[] };

/** The bus topic of a team's live notices. */
export const liveTopic = (teamId: string): string => `live:${teamId}`;

export function publishLive(bus: Bus, teamId: string, notice: LiveNotice): void {
  bus.publish(liveTopic(teamId), JSON.stringify(notice));
}

/** A notice as heard on the bus, or undefined for anything else (the bus carries text from other processes). */
export function parseLiveNotice(payload: string): LiveNotice | undefined {
  try {
    const notice = JSON.parse(payload) as LiveNotice;
    return notice?.kind === 'typing' || notice?.kind === 'presence' ? notice : undefined;
  } catch {
    return undefined;
  }
}
