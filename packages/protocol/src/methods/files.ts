import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { ChatId } from '../ids.js';
import { FileId, FileInfo, fileLimits } from '../files.js';
import { closedObject } from '../params.js';

const FileCursor = Type.String({ pattern: '^[0-9A-HJKMNP-TV-Z]{26}$', description: 'nextCursor of the previous page' });

export const upload = defineMethod({
  name: 'files.upload',
  summary:
    'Upload one file as multipart/form-data (a part named `file`; its filename is the file’s name), streamed to storage. ' +
    'The size per file and the team’s quota are checked from Content-Length before any byte is stored, and again while the bytes come. ' +
    'Its type comes from the bytes. The file is the caller’s until a message carries it (chat.sendMessage `files`); one no message carries is removed after a day.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: closedObject({}),
  result: closedObject({ file: FileInfo }),
  errors: ['FileTooLarge', 'QuotaExceeded', 'UnsupportedFile'],
});

export const getInfo = defineMethod({
  name: 'files.getInfo',
  summary: 'A file the caller may see: one they uploaded (through this app, for a token), or one a message they can see carries.',
  callers: ['token', 'session'],
  rateClass: 'read',
  params: closedObject({ file: FileId }),
  result: closedObject({ file: FileInfo }),
  errors: ['UnknownFile'],
});

export const remove = defineMethod({
  name: 'files.delete',
  summary:
    'Delete a file and its bytes: one’s own (a token, the files uploaded through its app); a team admin, signed in, any file they can see. ' +
    'Messages that carried it no longer show it.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: closedObject({ file: FileId }),
  result: closedObject({ file: FileId }),
  errors: ['UnknownFile'],
});

export const list = defineMethod({
  name: 'files.list',
  summary: 'The files the messages of a chat carry that the caller can see, the newest message first, by pages: pass nextCursor as `cursor` for the next.',
  callers: ['token', 'session'],
  rateClass: 'read',
  params: closedObject({
    chat: ChatId,
    cursor: Type.Optional(FileCursor),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: fileLimits.maxListPage, description: `page size, 1 to ${fileLimits.maxListPage} (default 50)` })),
  }),
  result: closedObject({
    files: Type.Array(closedObject({ file: FileInfo, messageUid: Type.String({ description: 'the newest message of the page carrying it' }) })),
    nextCursor: Type.Optional(FileCursor),
  }),
  errors: ['UnknownChat'],
});
