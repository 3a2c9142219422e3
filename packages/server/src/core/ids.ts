import { createHash, randomBytes, randomInt } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 16 base32 characters: 80 bits of randomness. */
function randomBase32(length = 16): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += BASE32[byte & 31];
  return out;
}

export const newUserId = (): string => `u:${randomBase32()}`;
export const newChannelId = (): string => `g:${randomBase32()}`;
export const newTeamId = (): string => `t:${randomBase32()}`;
export const newAppId = (): string => `a:${randomBase32()}`;

/** A secret or token: 256 bits, URL-safe. */
export const newSecret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

let lastTime = 0;
let lastRandom: number[] = [];

/**
 * A ULID: 48-bit millisecond time then 80 random bits, in Crockford base32. Within one millisecond the
 * random part is incremented, so uids from one process sort in the order they were made.
 */
export function newMessageUid(now: number = Date.now()): string {
  if (now <= lastTime) {
    now = lastTime;
    incrementRandom(lastRandom);
  } else {
    lastTime = now;
    lastRandom = Array.from({ length: 16 }, () => randomInt(32));
  }
  return encodeTime(now) + lastRandom.map((digit) => CROCKFORD[digit]).join('');
}

function encodeTime(time: number): string {
  let out = '';
  for (let i = 0, t = time; i < 10; i++, t = Math.floor(t / 32)) out = CROCKFORD[t % 32] + out;
  return out;
}

function incrementRandom(digits: number[]): void {
  for (let i = digits.length - 1; i >= 0; i--) {
    if (digits[i] < 31) {
      digits[i]++;
      return;
    }
    digits[i] = 0;
  }
}

/** The uid that sorts before every uid made at or after `time`. */
export const messageUidFloor = (time: number): string => encodeTime(time) + '0'.repeat(16);
