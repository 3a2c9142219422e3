import { describe, expect, it } from 'vitest';
import { listenAppIdOf, listenPath, webPageParam, webPagePath, webPages } from '../src/index.js';

describe('web pages', () => {
  it('makes a page’s path with its parameter encoded, and reads it back', () => {
    expect(webPagePath('chat', 'g:abcdefghijklmnop')).toBe('/c/g%3Aabcdefghijklmnop');
    expect(webPageParam('chat', webPagePath('chat', 'g:abcdefghijklmnop'))).toBe('g:abcdefghijklmnop');
    expect(webPageParam('devApp', webPagePath('devApp', 'a:x/y'))).toBe('a:x/y');
  });

  it('tells another page (undefined) from a parameter that does not decode (null)', () => {
    expect(webPageParam('chat', webPages.apps)).toBeUndefined();
    expect(webPageParam('devApp', '/dev/%')).toBeNull();
  });
});

describe('the listen path', () => {
  it('is read back from its path, and nothing else is one', () => {
    expect(listenAppIdOf(listenPath('a:x y'))).toBe('a:x y');
    expect(listenAppIdOf('/api/developer/apps/a:x/listen/more')).toBeUndefined();
    expect(listenAppIdOf('/api/stream')).toBeUndefined();
  });
});
