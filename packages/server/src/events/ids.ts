import { newMessageUid } from '../store/ids.js';

/** Event ids (the token's `jti`) are ULIDs like message uids, so a listing by id is a listing by time. */
export const newEventId = (now: number): string => `ev_${newMessageUid(now)}`;

export const newAttemptId = (now: number): string => `at_${newMessageUid(now)}`;
