import { AviaryApiError } from '@aviary/protocol';
import { formatFileSize } from './fileFormat';

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
