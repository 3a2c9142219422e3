import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { secretKeyProblem } from '../config.js';

/**
 * The server keys that seal app secrets at rest (AES-256-GCM), so that a copy of the database alone
 * forges no event, and sign what the server hands out to check later (device cookies). Each key is 32 random bytes, written in base64; its id is derived from it (the first
 * 8 bytes of its SHA-256, hex), so keys need no names. The first key seals; every key opens, which is
 * how a key is rotated: the new one first, the old one after it, until the server has sealed every
 * secret again with the new one (docs/operations.md, "The secret key").
 */
export interface SecretKeyring {
  /** The id of the key that seals. */
  readonly currentId: string;
  seal(plain: string): string;
  /** The secret a stored value holds: a sealed value opened with its key, or a value stored before sealing, as it is. */
  open(stored: string): string;
  /** Whether a stored value is sealed with the current key (else the server seals it again at start). */
  isCurrent(stored: string): boolean;
  /** An HMAC-SHA-256 of `data` (base64url) with the current key's subkey for `purpose` (a device cookie's). */
  sign(purpose: string, data: string): string;
  /** Whether `signature` is `data`'s signature for `purpose` under any of the keys (so a rotation keeps what was signed). */
  verify(purpose: string, data: string, signature: string): boolean;
}

/** The file of the embedded default's generated key, in the data directory. */
export const SECRET_KEY_FILE = 'secret.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const SEALED = 'sealed:v1:';
/** Binds a sealed value to what it is: an app secret sealed here opens as nothing else. */
const PURPOSE = Buffer.from('aviary app secret');

/**
 * The keyring of a store: the keys given (AVIARY_SECRET_KEY, already checked by the config), else the
 * key in `<dataDir>/secret.key`, generated there (mode 0600) the first time. Read when a secret is first
 * sealed or opened, so a store that never holds an app writes no key.
 */
export function loadSecretKeyring(options: { secretKeys?: readonly string[]; dataDir: string }): SecretKeyring {
  let loaded: SecretKeyring | undefined;
  const load = (): SecretKeyring => {
    if (loaded) return loaded;
    const written = options.secretKeys !== undefined && options.secretKeys.length > 0 ? options.secretKeys : [generatedKey(options.dataDir)];
    return (loaded = keyring(written.map((key) => Buffer.from(key, 'base64'))));
  };
  return {
    get currentId() {
      return load().currentId;
    },
    seal: (plain) => load().seal(plain),
    open: (stored) => (stored.startsWith(SEALED) ? load().open(stored) : stored),
    isCurrent: (stored) => load().isCurrent(stored),
    sign: (purpose, data) => load().sign(purpose, data),
    verify: (purpose, data, signature) => load().verify(purpose, data, signature),
  };
}

function generatedKey(dataDir: string): string {
  const file = join(dataDir, SECRET_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // 'wx': of two processes starting together on one data directory, one writes and the other reads.
    try {
      writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(file, 0o600);
  const key = readFileSync(file, 'utf8').trim();
  const problem = secretKeyProblem(key);
  if (problem) throw new Error(`${file} holds no usable secret key: ${problem}.`);
  return key;
}

export function keyring(keys: readonly Buffer[]): SecretKeyring {
  const byId = new Map(keys.map((key) => [keyId(key), key]));
  const currentId = keyId(keys[0]);
  const current = keys[0];
  return {
    currentId,
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv).setAAD(PURPOSE);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${SEALED}${currentId}:${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${sealed.toString('base64url')}`;
    },
    open(stored) {
      if (!stored.startsWith(SEALED)) return stored;
      const [id, iv, tag, sealed] = stored.slice(SEALED.length).split(':');
      const key = byId.get(id);
      if (!key) throw new Error(`an app secret is sealed with the key ${id}, which this process does not have: give every process the same AVIARY_SECRET_KEY (docs/operations.md)`);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(PURPOSE);
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
    },
    isCurrent: (stored) => stored.startsWith(`${SEALED}${currentId}:`),
    sign: (purpose, data) => mac(current, purpose, data).toString('base64url'),
    verify(purpose, data, signature) {
      const given = Buffer.from(signature, 'base64url');
      return keys.some((key) => {
        const expected = mac(key, purpose, data);
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
    },
  };
}

/** A subkey per purpose, so that nothing signed for one purpose passes for another, nor for a sealed secret. */
const mac = (key: Buffer, purpose: string, data: string): Buffer => createHmac('sha256', createHmac('sha256', key).update(`aviary ${purpose}`).digest()).update(data).digest();

const keyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 16);
