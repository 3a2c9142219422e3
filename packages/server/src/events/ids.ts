import { newUlid, ulidTimePrefix } from '../store/ids.js';

/** Event ids (the token's `jti`) are ULIDs, as message uids are, so a listing by id is a listing by time. */
export const newEventId = (now: number): string => `ev_${newUlid(now)}`;

export const newAttemptId = (now: number): string => `at_${newUlid(now)}`;

/** Sorts before the id of every event made from `time` on (and after those made before). */
export const eventIdFloor = (time: number): string => `ev_${ulidTimePrefix(time)}`;

/** Sorts before the id of every attempt started from `time` on. */
export const attemptIdFloor = (time: number): string => `at_${ulidTimePrefix(time)}`;
