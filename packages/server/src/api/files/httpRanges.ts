import type { ByteRange } from '../../files/storage.js';

/**
 * One `bytes=` range of a file of `total` bytes (RFC 9110 14.1.2): `a-b`, `a-`, or the last `-n`.
 * Undefined to send the whole file (no Range, another unit, several ranges: a server may ignore them);
 * 'unsatisfiable' (416) when it starts past the end.
 */
export function parseRange(header: string | undefined, total: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d{0,16})-(\d{0,16})$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || total === 0) return 'unsatisfiable';
    return { start: Math.max(0, total - suffix), end: total - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? total - 1 : Math.min(Number(match[2]), total - 1);
  if (start >= total || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Content-Disposition with the name as typed (RFC 6266 filename*) and a plain ASCII fallback. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
