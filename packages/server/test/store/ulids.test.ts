import { describe, expect, it } from 'vitest';
import { newUlid, ulidTimePrefix } from '../../src/store/ids.js';

describe('ULIDs', () => {
  it('sort in the order they were made within one millisecond', () => {
    const at = Date.UTC(2026, 0, 1);
    const made = Array.from({ length: 50 }, () => newUlid(at));
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
  });

  it('carry their own time after a later one was made, so an id never claims to be newer than it is', () => {
    const later = Date.UTC(2030, 0, 1);
    const earlier = Date.UTC(2026, 0, 1);
    newUlid(later);
    const id = newUlid(earlier);
    expect(id.startsWith(ulidTimePrefix(earlier))).toBe(true);
    expect(id < ulidTimePrefix(earlier + 1)).toBe(true);
  });
});
