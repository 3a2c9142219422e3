import { describe, expect, it } from 'vitest';
import { broadcastOf, doNotDisturbActive, levelOf, localClock } from '../src/notifications.js';

/** 2026-11-27 is a Friday (day 5). */
const at = (iso: string) => Date.parse(iso);

describe('broadcastOf', () => {
  it('finds @channel and @here as words, @channel first', () => {
    expect(broadcastOf('@channel deploy')).toBe('channel');
    expect(broadcastOf('standup (@here)')).toBe('here');
    expect(broadcastOf('@here and @channel')).toBe('channel');
    expect(broadcastOf('team@channel.example')).toBeUndefined();
    expect(broadcastOf('@channels')).toBeUndefined();
    expect(broadcastOf('@here-ish')).toBeUndefined();
    expect(broadcastOf('nothing')).toBeUndefined();
  });
});

describe('doNotDisturbActive', () => {
  const none = { schedule: null, pausedUntil: null, timeZone: 'UTC' };

  it('holds while paused', () => {
    expect(doNotDisturbActive({ ...none, pausedUntil: at('2026-11-27T12:00:00Z') }, at('2026-11-27T11:59:00Z'))).toBe(true);
    expect(doNotDisturbActive({ ...none, pausedUntil: at('2026-11-27T12:00:00Z') }, at('2026-11-27T12:00:00Z'))).toBe(false);
    expect(doNotDisturbActive(none, at('2026-11-27T12:00:00Z'))).toBe(false);
  });

  it('reads a daytime schedule in the person’s time zone', () => {
    const settings = { ...none, timeZone: 'Asia/Tokyo', schedule: { days: [5], start: '09:00', end: '17:00' } };
    // 01:00 UTC is 10:00 in Tokyo, a Friday there.
    expect(doNotDisturbActive(settings, at('2026-11-27T01:00:00Z'))).toBe(true);
    expect(doNotDisturbActive(settings, at('2026-11-27T09:00:00Z'))).toBe(false);
    // Thursday 10:00 in Tokyo.
    expect(doNotDisturbActive(settings, at('2026-11-26T01:00:00Z'))).toBe(false);
  });

  it('runs an overnight schedule into the next morning of a listed day', () => {
    const settings = { ...none, timeZone: 'Europe/Paris', schedule: { days: [5], start: '22:00', end: '07:00' } };
    expect(doNotDisturbActive(settings, at('2026-11-27T21:30:00Z'))).toBe(true); // Fri 22:30 Paris
    expect(doNotDisturbActive(settings, at('2026-11-28T05:30:00Z'))).toBe(true); // Sat 06:30 Paris
    expect(doNotDisturbActive(settings, at('2026-11-28T06:30:00Z'))).toBe(false); // Sat 07:30 Paris
    expect(doNotDisturbActive(settings, at('2026-11-27T05:30:00Z'))).toBe(false); // Fri 06:30: Thursday is not listed
  });

  it('falls back to UTC for an unknown zone', () => {
    expect(localClock(at('2026-11-27T08:15:00Z'), 'Nowhere/Else')).toEqual({ day: 5, minute: 8 * 60 + 15 });
  });
});

describe('levelOf', () => {
  it('is mentions unless set', () => {
    expect(levelOf({ chats: [{ chat: 'g:aaaaaaaaaaaaaaaa', level: 'mute' }] }, 'g:aaaaaaaaaaaaaaaa')).toBe('mute');
    expect(levelOf({ chats: [] }, 'g:aaaaaaaaaaaaaaaa')).toBe('mentions');
  });
});
