import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { ChatId } from '../ids.js';
import { FileId, FileInfo, fileLimits } from '../files.js';
import { closedObject, NonEmptyString } from '../params.js';

const FileCursor = Type.String({ pattern: '^[0-9A-HJKMNP-TV-Z]{26}$', description: 'nextCursor of the previous page' });

export const upload = defineMethod({
  name: 'files.upload',
  summary:
    'Upload one file as multipart/form-data (a part named `file`; its filename is the file’s name), streamed to storage. ' +
    'The size per file and the team’s quota are checked from Content-Length before any byte is stored, and again while the bytes come. ' +
    'A client that knows the file’s size sends it as `size` in the query string: it is checked before the body is read, a file of another length is refused, and on S3 the file is stored in one piece. ' +
    'Its type comes from the bytes. The file is the caller’s until a message carries it (chat.sendMessage `files`); one no message carries is removed after a day.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: closedObject({
    size: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'the file’s size in bytes, in the query string, when the client knows it' })),
  }),
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

/** A resumable upload as files.startUpload, files.getUpload and files.uploadPart answer it. */
export const UploadState = closedObject({
  uploadId: Type.String({ pattern: '^f:[a-z2-7]{16}$', description: 'the upload’s id, which is its file’s id once finished' }),
  name: Type.String({ description: 'the name the file will have' }),
  size: Type.Integer({ minimum: 0, description: 'the bytes files.startUpload announced' }),
  offset: Type.Integer({ minimum: 0, description: 'the bytes stored so far: where the next part starts' }),
  expiresAt: Type.Integer({ description: 'when an upload not finished by then is swept with its parts, milliseconds since the epoch' }),
});

const UploadId = Type.String({ pattern: '^f:[a-z2-7]{16}$', description: 'the uploadId files.startUpload answered' });

export const startUpload = defineMethod({
  name: 'files.startUpload',
  summary:
    'Start a resumable upload of a file of `size` bytes (docs/reference/files.md "Resumable uploads"): the size per file and the team’s quota are checked now, and the quota holds the size from then on. ' +
    'Send the bytes with files.uploadPart, then files.finishUpload.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: closedObject({
    name: NonEmptyString(1000, 'the file’s name (at most 255 characters are kept)'),
    size: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'the file’s size in bytes' }),
  }),
  result: closedObject({ upload: UploadState }),
  errors: ['FileTooLarge', 'QuotaExceeded'],
});

export const getUpload = defineMethod({
  name: 'files.getUpload',
  summary: 'A resumable upload of the caller’s: how many bytes are stored, so that after a cut connection the next part starts at `offset`.',
  callers: ['token', 'session'],
  rateClass: 'read',
  params: closedObject({ uploadId: UploadId }),
  result: closedObject({ upload: UploadState }),
  errors: ['UnknownFile'],
});

export const uploadPart = defineMethod({
  name: 'files.uploadPart',
  summary:
    'POST the next part of a resumable upload as the raw request body, with `uploadId` and `offset` (where it starts: the upload’s offset) in the query string. ' +
    'A part cut off is not kept: ask files.getUpload for the offset and send it again. A part may not go past the size announced.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: closedObject({
    uploadId: UploadId,
    offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'where the part starts in the file: the upload’s offset' }),
  }),
  result: closedObject({ upload: UploadState }),
  errors: ['UnknownFile'],
});

export const finishUpload = defineMethod({
  name: 'files.finishUpload',
  summary: 'Finish a resumable upload whose bytes are all sent: the parts become the file, typed from its bytes, as files.upload would have stored it.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: closedObject({ uploadId: UploadId }),
  result: closedObject({ file: FileInfo }),
  errors: ['UnknownFile', 'UnsupportedFile'],
});
