import { AviaryApiError, type FileInfoModel } from '@aviary/protocol';

/** What a file is, for its icon and how a message shows it. */
export type FileKind = 'image' | 'video' | 'audio' | 'pdf' | 'archive' | 'spreadsheet' | 'document' | 'text' | 'code' | 'other';

const ICONS: Readonly<Record<FileKind, string>> = {
  image: '🖼️',
  video: '🎞️',
  audio: '🎵',
  pdf: '📕',
  archive: '🗜️',
  spreadsheet: '📊',
  document: '📄',
  text: '📝',
  code: '💻',
  other: '📎',
};

/**
 * By extension, for the files whose bytes show no type (the server says application/octet-stream for
 * text, documents it does not know): what the name says is only used for the icon, never for showing it.
 */
const BY_EXTENSION: ReadonlyMap<string, FileKind> = new Map([
  ...['zip', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'tar', 'zst'].map((ext) => [ext, 'archive'] as const),
  ...['csv', 'tsv', 'xls', 'xlsx', 'ods', 'numbers'].map((ext) => [ext, 'spreadsheet'] as const),
  ...['doc', 'docx', 'odt', 'rtf', 'pages', 'ppt', 'pptx', 'odp', 'key', 'epub'].map((ext) => [ext, 'document'] as const),
  ...['txt', 'md', 'log'].map((ext) => [ext, 'text'] as const),
  ...['js', 'ts', 'tsx', 'jsx', 'json', 'py', 'rb', 'go', 'rs', 'java', 'c', 'h', 'cpp', 'cs', 'sh', 'sql', 'yaml', 'yml', 'toml', 'xml', 'html', 'css'].map((ext) => [ext, 'code'] as const),
  ['pdf', 'pdf'],
]);

/** The kind of a file from its type (the server's, read from the bytes), else from its name's extension. */
export function fileKind(mimeType: string, name = ''): FileKind {
  const type = mimeType.toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'application/pdf') return 'pdf';
  if (/zip|gzip|x-7z|x-rar|x-tar|x-bzip2|x-xz|zstd/.test(type)) return 'archive';
  if (/spreadsheet|ms-excel|csv/.test(type)) return 'spreadsheet';
  if (/wordprocessing|msword|opendocument\.text|presentation|powerpoint|rtf|epub/.test(type)) return 'document';
  if (type.startsWith('text/')) return 'text';
  const extension = /\.([a-z0-9]{1,8})$/i.exec(name)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION.get(extension)) || 'other';
}

export const kindIcon = (kind: FileKind): string => ICONS[kind];

/** A size as people read it: bytes, then KB, MB, GB (of 1024), one decimal below 10 units. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  // 1023.6 KB rounds to 1024 KB: say 1 MB instead.
  if (shown >= 1024 && unit < units.length - 1) return `1 ${units[unit + 1]}`;
  return `${shown} ${units[unit]}`;
}

/** The box an image is shown in: its own size scaled down (never up) to fit `max`, the aspect kept. */
export function fitWithin(width: number | undefined, height: number | undefined, max: { width: number; height: number }): { width: number; height: number } | undefined {
  if (!width || !height) return undefined;
  const scale = Math.min(1, max.width / width, max.height / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * A message must have text: one sent with files and no caption says the files' names, which the message
 * then does not show again above the files (they show their names themselves).
 */
export const captionOf = (text: string, names: readonly string[]): string => (text.trim() !== '' ? text.trim() : names.join(', '));

/** Whether a message's text is only the names of its files (captionOf without a caption). */
export const isNamesOnly = (text: string, files: readonly Pick<FileInfoModel, 'name'>[] | undefined): boolean =>
  files !== undefined && files.length > 0 && text === files.map((file) => file.name).join(', ');

/** Whether the page shows the file as an image (a thumbnail, and in the viewer). */
export const isShownImage = (file: FileInfoModel): boolean => file.inline && file.mimeType.startsWith('image/');

/**
 * Why an upload failed, in words a person can act on, shown on the file's row. The server's own
 * descriptions speak to developers (method names, settings); the limit it names is kept.
 */
export function uploadRefusalText(error: unknown): string {
  if (!(error instanceof AviaryApiError)) return 'The upload was cut off before the server had it. Check your connection, then try again.';
  const description = typeof error.body.description === 'string' ? error.body.description : '';
  switch (error.code) {
    case 'FileTooLarge': {
      const limit = /at most (\d+) bytes/.exec(description)?.[1];
      return `Too large: this server takes files of at most ${limit ? formatFileSize(Number(limit)) : 'a set size'}. Share a smaller file, or split it.`;
    }
    case 'QuotaExceeded':
      return 'The team’s file storage is full. Ask a team admin to delete files the team no longer needs, or to raise the team’s quota.';
    case 'UnsupportedFile':
      return 'Its name says an image, video or sound, but its contents are not one. Rename it with the right extension, or share the real file.';
    case 'TooManyRequests':
      return 'Too many uploads at once. Wait a moment, then try again.';
    default:
      return description || error.message;
  }
}

/** Whether trying the same file again may work (a broken connection, a rate limit), unlike a refusal of the file itself. */
export const worthRetrying = (error: unknown): boolean => !(error instanceof AviaryApiError) || error.code === 'TooManyRequests' || error.status >= 500;
