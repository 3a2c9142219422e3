import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { FileInfo } from '../files.js';
import { ChatId, messageUidPattern } from '../ids.js';
import { Message } from '../models.js';
import { NonEmptyString } from '../params.js';

/** A piece of a match's snippet: `match` marks the words the query found (searchQuery.ts, docs/search.md). */
export const SnippetPart = Type.Object({
  text: Type.String(),
  match: Type.Optional(Type.Literal(true, { description: 'present on the parts the query matched, for highlighting' })),
});

export const SearchMatch = Type.Object({
  message: Message,
  chat: ChatId,
  chatType: Type.Union([Type.Literal('channel'), Type.Literal('direct')]),
  joinable: Type.Boolean({ description: 'true for a public channel the caller is not in but may join; its messages are found too' }),
  snippet: Type.Array(SnippetPart, { description: 'an excerpt of the text around the matched words, the matches marked' }),
});

/**
 * An Aviary extension (docs/search.md): full-text search over every message the token's user can see
 * now, newest first.
 */
export const messages = defineMethod({
  name: 'search.messages',
  callers: ['token', 'session'],
  summary: 'Search the messages the token’s user can see (their channels, direct chats and the public channels they may join), newest first.',
  rateClass: 'read',
  params: Type.Object({
    query: NonEmptyString(1000, 'words, "phrases", -excluded words and filters: in:#channel in:@person from:@person has:link has:file before: after: on: (docs/search.md)'),
    cursor: Type.Optional(Type.String({ pattern: messageUidPattern.source, description: 'the nextCursor of the previous page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'page size, 1 to 100 (default 20)' })),
  }),
  result: Type.Object({
    matches: Type.Array(SearchMatch),
    nextCursor: Type.Optional(Type.String({ description: 'present when there may be more: pass it as cursor for the next page' })),
  }),
});

/** search.files' cursor: the uid of the last match's message and its file id, as nextCursor gives it. */
export const fileSearchCursorPattern = /^[0-9A-HJKMNP-TV-Z]{26}~f:[a-z2-7]{16}$/;

export const FileMatch = Type.Object({
  file: FileInfo,
  messageUid: Type.String({ pattern: messageUidPattern.source, description: 'the newest message carrying the file that the caller can see' }),
  chat: ChatId,
  chatType: Type.Union([Type.Literal('channel'), Type.Literal('direct')]),
  joinable: Type.Boolean({ description: 'true for a public channel the caller is not in but may join' }),
});

/**
 * An Aviary extension (docs/search.md "Files"): files found by name among those carried by the messages
 * search.messages would search, newest message first.
 */
export const files = defineMethod({
  name: 'search.files',
  callers: ['token', 'session'],
  summary: 'Find files by name among those carried by the messages the token’s user can see (as search.messages), the newest message first.',
  rateClass: 'read',
  params: Type.Object({
    query: NonEmptyString(
      1000,
      'words each found in the file’s name (any case; part of a word will do), -excluded words, and the filters in:#channel in:@person from:@person before: after: on: (docs/search.md)',
    ),
    cursor: Type.Optional(Type.String({ pattern: fileSearchCursorPattern.source, description: 'the nextCursor of the previous page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'page size, 1 to 100 (default 20)' })),
  }),
  result: Type.Object({
    matches: Type.Array(FileMatch),
    nextCursor: Type.Optional(Type.String({ description: 'present when there may be more: pass it as cursor for the next page' })),
  }),
});
