import { inlineFileTypes, type FileInfoModel } from '@aviary/protocol';
import type { FilesTable } from '../../store/schema.js';
import { withinPixelLimit } from './imageSize.js';
import { cutText } from '../textCut.js';

/** Image types sharp makes a thumbnail and a preview of (core/files/renditions.ts). */
export const RENDERED_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/tiff', 'image/heic']);

export const fileUrl = (id: string): string => `/files/${id}`;

/**
 * A file as the API shows it. An image is shown inline only when its size is known and within
 * IMAGE_PIXEL_LIMIT (a decompression bomb downloads); its thumbnail and preview URLs are given for
 * every such image sharp renders: until they are made (a moment after the upload), the server answers
 * them with the image itself.
 */
export function presentFile(row: Pick<FilesTable, 'id' | 'name' | 'size' | 'mime_type' | 'uploaded_by' | 'created_at' | 'width' | 'height'>): FileInfoModel {
  const url = fileUrl(row.id);
  const image = row.mime_type.startsWith('image/');
  const shown = !image || withinPixelLimit(row);
  const rendered = RENDERED_TYPES.has(row.mime_type) && shown;
  return {
    id: row.id,
    name: row.name,
    size: Number(row.size),
    mimeType: row.mime_type,
    uploadedBy: row.uploaded_by,
    createdAt: Number(row.created_at),
    url,
    inline: inlineFileTypes.includes(row.mime_type) && shown,
    ...(row.width !== null && row.height !== null ? { width: row.width, height: row.height } : {}),
    ...(rendered ? { thumbnailUrl: `${url}?size=thumbnail`, previewUrl: `${url}?size=preview` } : {}),
  };
}

/** Where a file's bytes and its renditions are kept in storage (never a name a client chose). */
export const storageKey = (row: Pick<FilesTable, 'team_id' | 'id'>, rendition?: 'thumbnail' | 'preview'): string =>
  `${row.team_id.replace(':', '_')}/${row.id.replace(':', '_')}${rendition ? `.${rendition}` : ''}`;

/**
 * A name as kept: the last part of a path (a browser may send one), without control characters, at most
 * 255 characters (the extension kept), and `file` when nothing is left.
 */
export function cleanFileName(given: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const base = (given ?? '').split(/[/\\]/).pop()!.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (base === '' || base === '.' || base === '..') return 'file';
  if (base.length <= 255) return base;
  const extension = /\.[A-Za-z0-9]{1,8}$/.exec(base)?.[0] ?? '';
  return cutText(base, 255 - extension.length) + extension;
}
