import { describe, expect, it } from 'vitest';
import { PresenceTracker } from '../src/stream/presence.js';

const online = (...userIds: string[]) => ({ type: 'presence' as const, status: 'online' as const, userIds });
const away = (...userIds: string[]) => ({ type: 'presence' as const, status: 'away' as const, userIds });

describe('the web client’s presence, from the stream’s frames', () => {
  it('knows nobody until the list after hello, then adds and removes', () => {
    const tracker = new PresenceTracker();
    tracker.connected();
    expect(tracker.apply(away('u:a'))).toBeUndefined();
    expect([...tracker.apply(online('u:a', 'u:b'))!]).toEqual(['u:a', 'u:b']);
    expect([...tracker.apply(online('u:c'))!]).toEqual(['u:a', 'u:b', 'u:c']);
    expect([...tracker.apply(away('u:a'))!]).toEqual(['u:b', 'u:c']);
  });

  it('replaces what it knew with the list after a reconnect: who left meanwhile drops out', () => {
    const tracker = new PresenceTracker();
    tracker.connected();
    tracker.apply(online('u:a', 'u:b'));
    tracker.connected();
    expect([...tracker.apply(online('u:b', 'u:c'))!]).toEqual(['u:b', 'u:c']);
    expect([...tracker.apply(online('u:a'))!]).toEqual(['u:b', 'u:c', 'u:a']);
  });
});
