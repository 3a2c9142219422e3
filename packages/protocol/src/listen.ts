import { Type, type Static } from '@sinclair/typebox';

/**
 * The frames of `GET /api/developer/apps/:id/listen`, the WebSocket that takes an app's events instead
 * of its listener URL while it is open (`aviary listen`). The server sends an event exactly as it would
 * POST it; the listening side answers as the listener would.
 */
export const listenPath = (appId: string): string => `/api/developer/apps/${encodeURIComponent(appId)}/listen`;

const LISTEN_PATH = /^\/api\/developer\/apps\/([^/]{1,64})\/listen$/;

/** The app id of a listen connection's path (listenPath's inverse, its id decoded if it decodes), else undefined. */
export function listenAppIdOf(pathname: string): string | undefined {
  const encoded = LISTEN_PATH.exec(pathname)?.[1];
  if (encoded === undefined) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/** An event as it would be POSTed: the X-Service-* headers (with the signed token) and the exact body. */
export const ListenEventFrame = Type.Object({
  type: Type.Literal('event'),
  /** Names this call; the answer carries it back. */
  id: Type.String({ maxLength: 64 }),
  headers: Type.Record(Type.String(), Type.String()),
  body: Type.String(),
});
export type ListenEventFrame = Static<typeof ListenEventFrame>;

/**
 * The platform's verdict on one call, once it has judged it: `delivered` (a 2xx in time) or `failed`
 * with why (`timeout`, `connection_failed`, `http_error`) and the server's words. A listening side
 * prints this, not what its local listener did: an answer after the server's window is a time-out.
 * (An asynchronous event that failed is retried as its delivery log shows.)
 */
export const ListenVerdictFrame = Type.Object({
  type: Type.Literal('verdict'),
  id: Type.String({ maxLength: 64 }),
  outcome: Type.Union([Type.Literal('delivered'), Type.Literal('failed')]),
  reason: Type.Optional(Type.Union([Type.Literal('timeout'), Type.Literal('connection_failed'), Type.Literal('http_error')])),
  error: Type.Optional(Type.String()),
});
export type ListenVerdictFrame = Static<typeof ListenVerdictFrame>;

/** What the server sends down a listen connection. */
export const ListenServerFrame = Type.Union([ListenEventFrame, ListenVerdictFrame]);
export type ListenServerFrame = Static<typeof ListenServerFrame>;

/** What the listener answered, as HTTP: its status, headers and body (text). */
export const ListenAnswerFrame = Type.Object({
  type: Type.Literal('answer'),
  id: Type.String({ maxLength: 64 }),
  status: Type.Integer({ minimum: 100, maximum: 599 }),
  headers: Type.Optional(Type.Record(Type.String({ maxLength: 256 }), Type.String({ maxLength: 8192 }))),
  body: Type.String(),
});
export type ListenAnswerFrame = Static<typeof ListenAnswerFrame>;

/** The listening side could not reach its local listener: the server counts it as a failed connection. */
export const ListenFailureFrame = Type.Object({
  type: Type.Literal('unreachable'),
  id: Type.String({ maxLength: 64 }),
  error: Type.String({ maxLength: 1000 }),
});
export type ListenFailureFrame = Static<typeof ListenFailureFrame>;

export const ListenReplyFrame = Type.Union([ListenAnswerFrame, ListenFailureFrame]);
export type ListenReplyFrame = Static<typeof ListenReplyFrame>;

/** Largest reply frame the server reads: an answer is cut off at 1 MiB like an HTTP answer, plus its headers. */
export const listenMaxReplyBytes = 1024 * 1024 + 64 * 1024;
