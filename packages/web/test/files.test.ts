import { AviaryApiError } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { captionOf, fileKind, fitWithin, formatFileSize, isNamesOnly, uploadRefusalText, worthRetrying } from '../src/app/files/fileFormat.js';
import { nextZoom } from '../src/app/files/zoom.js';

describe('file sizes as people read them', () => {
  it('bytes, then KB, MB, GB of 1024, one decimal below ten', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(48_213)).toBe('47 KB');
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1 MB');
    expect(formatFileSize(100 * 1024 * 1024)).toBe('100 MB');
    expect(formatFileSize(5.25 * 1024 ** 3)).toBe('5.3 GB');
    expect(formatFileSize(-1)).toBe('');
  });
});

describe('the kind of a file', () => {
  it('comes from the type the server read from the bytes', () => {
    expect(fileKind('image/png', 'x.bin')).toBe('image');
    expect(fileKind('video/mp4')).toBe('video');
    expect(fileKind('audio/mpeg')).toBe('audio');
    expect(fileKind('application/pdf')).toBe('pdf');
    expect(fileKind('application/zip')).toBe('archive');
    expect(fileKind('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')).toBe('spreadsheet');
    expect(fileKind('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('document');
  });

  it('falls back on the name’s extension only when the bytes said nothing, and never makes an image of a name', () => {
    expect(fileKind('application/octet-stream', 'notes.TXT')).toBe('text');
    expect(fileKind('application/octet-stream', 'budget.csv')).toBe('spreadsheet');
    expect(fileKind('application/octet-stream', 'main.rs')).toBe('code');
    expect(fileKind('application/octet-stream', 'cat.png')).toBe('other');
    expect(fileKind('application/octet-stream', 'README')).toBe('other');
  });
});

describe('an image’s box', () => {
  it('scales down to fit, keeping the aspect, and never up', () => {
    expect(fitWithin(1200, 800, { width: 360, height: 240 })).toEqual({ width: 360, height: 240 });
    expect(fitWithin(400, 1600, { width: 360, height: 240 })).toEqual({ width: 60, height: 240 });
    expect(fitWithin(40, 30, { width: 360, height: 240 })).toEqual({ width: 40, height: 30 });
    expect(fitWithin(undefined, 30, { width: 360, height: 240 })).toBeUndefined();
  });
});

describe('a message of files without a caption', () => {
  it('says the files’ names, which the page then does not show twice', () => {
    expect(captionOf('  The plan ', ['plan.png'])).toBe('The plan');
    expect(captionOf('', ['plan.png', 'notes.txt'])).toBe('plan.png, notes.txt');
    expect(isNamesOnly('plan.png, notes.txt', [{ name: 'plan.png' }, { name: 'notes.txt' }])).toBe(true);
    expect(isNamesOnly('plan.png', [{ name: 'plan.png' }, { name: 'notes.txt' }])).toBe(false);
    expect(isNamesOnly('plan.png', undefined)).toBe(false);
  });
});

describe('the viewer’s zoom', () => {
  it('steps by a quarter within 10 % and 800 %, and goes back to fit', () => {
    expect(nextZoom(1, 'in')).toBe(1.25);
    expect(nextZoom(1.25, 'out')).toBe(1);
    expect(nextZoom(7, 'in')).toBe(8);
    expect(nextZoom(0.11, 'out')).toBe(0.1);
    expect(nextZoom(3, 'fit')).toBe('fit');
  });
});

describe('an upload’s refusal', () => {
  const refusal = (error: string, description: string) => new AviaryApiError(413, { ok: false, error, description, parameter: 'file' });

  it('says what to do, with the server’s limit', () => {
    const tooLarge = refusal('FileTooLarge', 'A file may have at most 3145728 bytes (3 MiB) on this server; send a smaller file, or split it.');
    expect(uploadRefusalText(tooLarge)).toBe('Too large: this server takes files of at most 3 MB. Share a smaller file, or split it.');
    expect(uploadRefusalText(refusal('QuotaExceeded', 'The team has 0 bytes left…'))).toMatch(/storage is full\. Ask a team admin/);
    expect(uploadRefusalText(refusal('UnsupportedFile', 'The name "a.png" says an image…'))).toMatch(/Rename it/);
    expect(uploadRefusalText(refusal('InvalidRequestData', 'The multipart body could not be read.'))).toBe('The multipart body could not be read.');
    expect(uploadRefusalText(new TypeError('network'))).toMatch(/Check your connection/);
  });

  it('is worth retrying only when the file itself was not refused', () => {
    expect(worthRetrying(new TypeError('network'))).toBe(true);
    expect(worthRetrying(refusal('TooManyRequests', 'slow down'))).toBe(true);
    expect(worthRetrying(refusal('FileTooLarge', 'too large'))).toBe(false);
  });
});
