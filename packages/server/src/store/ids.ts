import { hash, randomBytes, randomFillSync } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const pool = Buffer.allocUnsafe(4096);
let poolOffset = pool.length;

/**
 * Random bytes for ids, cut from a pool refilled by one randomFillSync per 4 KiB: a randomBytes call per
 * id costs more than the rest of making it. The bytes are a view of the pool, valid until the next call.
 */
function pooledRandomBytes(size: number): Buffer {
  if (poolOffset + size > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += size;
  return pool.subarray(poolOffset - size, poolOffset);
}

/** 16 base32 characters: 80 bits of randomness. */
function randomBase32(length = 16): string {
  const bytes = pooledRandomBytes(length);
  let out = '';
  for (const byte of bytes) out += BASE32[byte & 31];
  return out;
}

export const newUserId = (): string => `u:${randomBase32()}`;
export const newChannelId = (): string => `g:${randomBase32()}`;
export const newTeamId = (): string => `t:${randomBase32()}`;
export const newAppId = (): string => `a:${randomBase32()}`;
export const newWebhookId = (): string => `wh_${randomBase32()}`;

/** A secret or token: 256 bits, URL-safe. */
export const newSecret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;

/** The id of one HTTP request, sent back as x-request-id and quoted in error reports. */
export const newRequestId = (): string => `req_${pooledRandomBytes(9).toString('base64url')}`;

export const hashToken = (token: string): string => hash('sha256', token, 'hex');

let lastTime = 0;
let lastTimeText = '';
let lastRandom: number[] = [];

/**
 * A ULID: 48-bit millisecond time then 80 random bits, in Crockford base32. Within one millisecond the
 * random part is incremented, so ULIDs from one process sort in the order they were made. Message uids
 * are ULIDs, and event and attempt ids are built from them (events/ids.ts). A time before the last one
 * (a clock set back, or another clock in the same process) starts afresh at that time: its ULIDs carry
 * their own time, never a later one, since readers take an id's time as a floor ("made since …").
 */
export function newUlid(now: number = Date.now()): string {
  if (now === lastTime) {
    incrementRandom(lastRandom);
  } else {
    lastTime = now;
    lastTimeText = encodeTime(now);
    lastRandom = Array.from(pooledRandomBytes(16), (byte) => byte & 31);
  }
  let uid = lastTimeText;
  for (const digit of lastRandom) uid += CROCKFORD[digit];
  return uid;
}

/** A message's uid: a ULID, so that a listing by uid is a listing by time. */
export const newMessageUid = (now: number = Date.now()): string => newUlid(now);

/** The time part of the ULIDs made at `time`: it sorts before every ULID made from then on. */
export const ulidTimePrefix = (time: number): string => encodeTime(time);

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
