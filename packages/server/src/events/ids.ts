import { newUlid } from '../store/ids.js';

/** Event ids (the token's `jti`) are ULIDs, as message uids are, so a listing by id is a listing by time. */
export const newEventId = (now: number): string => `ev_${newUlid(now)}`;

export const newAttemptId = (now: number): string => `at_${newUlid(now)}`;
