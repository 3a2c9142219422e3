import { Type, type Static } from '@sinclair/typebox';
import { UserId, type TId } from './ids.js';

/** A file id: `f:` and 16 base32 characters, as files.upload returns it. */
export const fileIdPattern = /^f:[a-z2-7]{16}$/;
export type FileIdBrand = string & { readonly fileId: unique symbol };
export const FileId = Type.String({ pattern: '^f:[a-z2-7]{16}$', description: 'a file id (f: followed by 16 base32 characters), as files.upload returns it' }) as TId<FileIdBrand>;

/** The limits of files every server shares; the size per file and the team's quota are the server's configuration. */
export const fileLimits = {
  /** Files one message may carry. */
  maxFilesPerMessage: 10,
  /** The longest file name kept, in characters (a longer one is cut, keeping its extension). */
  maxNameLength: 255,
  /** Files per page of files.list. */
  maxListPage: 100,
} as const;

/**
 * The types served inline (shown in the page: an <img>, <video> or <audio>); every other file is served
 * as an attachment to download, SVG and HTML above all (docs/reference/files.md "Serving").
 */
export const inlineFileTypes: readonly string[] = [
  'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif',
  'video/mp4', 'video/webm', 'video/ogg', 'video/quicktime',
  'audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/x-wav', 'audio/webm', 'audio/mp4', 'audio/aac', 'audio/flac', 'audio/x-flac',
];

/** A file as the API shows it: in files.getInfo and files.list, and in every message that carries it. */
export const FileInfo = Type.Object(
  {
    id: FileId,
    name: Type.String({ description: 'the name it was uploaded with (at most 255 characters)' }),
    size: Type.Integer({ minimum: 0, description: 'bytes' }),
    mimeType: Type.String({ description: 'the type its bytes show (never its name alone); application/octet-stream when they show none' }),
    uploadedBy: UserId,
    createdAt: Type.Integer({ description: 'when it was uploaded, milliseconds since the epoch' }),
    url: Type.String({ description: 'where its bytes are served (GET, with Range), relative to the server: /files/<id>' }),
    inline: Type.Boolean({ description: 'true for an image, video or audio type shown in the page; false: it downloads as an attachment' }),
    width: Type.Optional(Type.Integer({ description: 'an image’s width in pixels, as shown (EXIF orientation applied)' })),
    height: Type.Optional(Type.Integer({ description: 'an image’s height in pixels, as shown' })),
    thumbnailUrl: Type.Optional(Type.String({ description: 'an image’s thumbnail (at most 360 pixels a side, WebP), once made: /files/<id>?size=thumbnail' })),
    previewUrl: Type.Optional(Type.String({ description: 'an image’s preview (at most 1600 pixels a side, WebP), once made: /files/<id>?size=preview' })),
  },
  { additionalProperties: false },
);
export type FileInfoModel = Static<typeof FileInfo>;
