import type { UsersTable } from '../store/schema.js';
import { compiledOnce } from '../store/compiledOnce.js';
import type { Db, Store } from '../store/store.js';
import { hashToken } from '../store/ids.js';
import { appDisabledBy, appDisabledError, appUseRefusal } from '../core/policies/apps.js';
import { ApiError } from './errors.js';

/**
 * Who is calling: a user acting through one app or an app's bot (a token), a signed-in person (a
 * session), or an app acting on itself with its secret.
 */
export type Caller = TokenCaller | PersonCaller | AppSecretCaller;

export interface TokenCaller {
  user: UsersTable;
  appId: string;
  kind: 'user' | 'bot';
  tokenHash: string;
}

/** A person acting for themselves, through no app, with one of their sessions or personal tokens. */
export interface PersonCaller {
  user: UsersTable;
  appId: null;
  kind: 'person';
  /**
   * The hash of the session's token, or of the personal token: what it opens (a stream ticket) ends with
   * it. For sessions.list and the other methods only a session calls (`sessionOnly`), always a session's.
   */
  sessionHash: string;
  /** How the person signed this call: their session, or a personal token of theirs (personalTokens.create), which acts as them. */
  via: 'session' | 'personalToken';
  /** The client's address, as AVIARY_TRUST_PROXY decides: a wrong current password counts against it (users.changePassword). */
  clientAddress: string;
}

/** An app acting on itself, with its current secret (callerOf.ts): no person, no install, no token. */
export interface AppSecretCaller {
  user: null;
  appId: string;
  kind: 'appSecret';
}

/** Whoever calls a method anyone may call (signing up with an invitation, a password reset): no credential, an address. */
export interface AnonymousCaller {
  kind: 'anyone';
  /** The client's address, as AVIARY_TRUST_PROXY decides: such calls are limited by it. */
  clientAddress: string;
}

const tokenQuery = compiledOnce((db, { tokenHash }: { tokenHash: string }) =>
  db
    .selectFrom('app_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('apps as a', 'a.id', 't.app_id')
    .leftJoin('installs as i', (join) => join.onRef('i.app_id', '=', 't.app_id').onRef('i.user_id', '=', 't.user_id'))
    .selectAll('u')
    .select(['t.kind', 't.app_id as appId', 'a.disabled_by_team as disabledByTeam', 'i.disabled_by_user as disabledByUser', 'i.app_id as installedAppId'])
    .where('t.token_hash', '=', tokenHash),
);

type TokenRow = Awaited<ReturnType<typeof tokenQuery>>[number];

const MAX_CACHED_TOKENS = 10_000;

/**
 * Token rows found in a SQLite store, kept while its credentials version stands. Triggers bump the
 * version in the same transaction as any change to tokens, users, installs or an app's team switch,
 * whoever makes it (the CLI beside a running server too), so reading it first tells whether a kept row
 * is still what the lookup would return. A row read after the version can only be newer than it.
 */
const cachedTokens = new WeakMap<Db, { version: number; rows: Map<string, TokenRow> }>();

async function findToken(store: Store, tokenHash: string): Promise<TokenRow | undefined> {
  const version = await store.credentialsVersion();
  if (version === undefined) return (await tokenQuery(store.db, { tokenHash }))[0];
  let cache = cachedTokens.get(store.db);
  if (cache?.version !== version || cache.rows.size >= MAX_CACHED_TOKENS) {
    cache = { version, rows: new Map() };
    cachedTokens.set(store.db, cache);
  }
  let row = cache.rows.get(tokenHash);
  if (!row) {
    [row] = await tokenQuery(store.db, { tokenHash });
    if (row) cache.rows.set(tokenHash, row);
  }
  return row;
}

/**
 * SHA-256 of the tokens seen lately: an app calls with the same few tokens again and again, and a
 * lookup costs far less than hashing anew. Bounded like the token cache, and only well-formed tokens
 * (at most MAX_TOKEN_LENGTH characters) get here, so it holds at most a few MB.
 */
const recentHashes = new Map<string, string>();

function hashOf(token: string): string {
  let hash = recentHashes.get(token);
  if (hash === undefined) {
    if (recentHashes.size >= MAX_CACHED_TOKENS) recentHashes.clear();
    hash = hashToken(token);
    recentHashes.set(token, hash);
  }
  return hash;
}

/**
 * Every token and secret the server issues is a short prefix and 43 base64url characters
 * (`newSecret`); anything longer or with other characters cannot be one. The limit leaves room for
 * longer prefixes.
 */
const MAX_TOKEN_LENGTH = 128;
/** What could be a token at all: checked before a value is hashed, cached or looked up. */
const TOKEN_SHAPE = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_TOKEN_LENGTH}}$`);

const invalidToken = () => new ApiError('InvalidToken', 'The token is unknown, revoked, or belongs to an uninstalled app.');

/** Resolves a method token; InvalidToken and AppDisabled come from here, in that order. */
export async function authenticate(store: Store, token: string): Promise<TokenCaller> {
  if (!TOKEN_SHAPE.test(token)) {
    throw new ApiError('InvalidToken', `The token is malformed: tokens are at most ${MAX_TOKEN_LENGTH} characters of A-Z, a-z, 0-9, _ and -.`);
  }
  const tokenHash = hashOf(token);
  const row = await findToken(store, tokenHash);
  if (!row || row.deactivated_at !== null) throw invalidToken();
  const { kind, appId, disabledByTeam, disabledByUser, installedAppId, ...user } = row;
  // A bot acts for its own app, without an install. A user's token outlives nothing: uninstalling
  // deletes the install row, and with it the token's use.
  const use = { disabledByTeam, installed: installedAppId != null, disabledByUser };
  const refusal = kind === 'bot' ? appDisabledBy(use) : appUseRefusal(use);
  if (refusal === 'notInstalled') throw invalidToken();
  if (refusal) throw appDisabledError(refusal, 'this app', 'use its token');
  return { kind, appId, tokenHash, user };
}
