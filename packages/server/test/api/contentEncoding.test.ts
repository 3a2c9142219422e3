import { describe, expect, it } from 'vitest';
import { pickEncoding } from '../../src/api/contentEncoding.js';

describe('pickEncoding', () => {
  it('prefers Brotli, then gzip, as the Accept-Encoding header accepts them', () => {
    expect(pickEncoding('gzip, deflate, br')?.encoding).toBe('br');
    expect(pickEncoding('gzip')?.encoding).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.1')?.encoding).toBe('gzip');
    expect(pickEncoding(' Br ; q=0.8 ')?.encoding).toBe('br');
    expect(pickEncoding('*')?.encoding).toBe('br');
    expect(pickEncoding('*, br;q=0')?.encoding).toBe('gzip');
  });

  it('answers the file as it is when nothing it has is accepted, or the header makes no sense', () => {
    for (const header of [undefined, '', 'identity', 'deflate', 'br;q=0, gzip;q=0', '*;q=0', 'br;q=abc', ',,;;', 'gzip;q=-1']) expect(pickEncoding(header), String(header)).toBeUndefined();
  });
});
