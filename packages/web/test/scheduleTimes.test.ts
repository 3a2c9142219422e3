import { describe, expect, it } from 'vitest';
import { momentOf, scheduleChoices, wallTimeAt } from '../src/app/schedule/scheduleTimes.js';

const utc = (...parts: [number, number, number, number, number]) => Date.UTC(...parts);

describe('times on the person’s clock, for scheduling a message', () => {
  it('reads a wall time at its own offset, either side of a daylight-saving change', () => {
    expect(momentOf({ date: '2026-01-15', time: '09:00' }, 'Europe/Paris')).toBe(utc(2026, 0, 15, 8, 0));
    expect(momentOf({ date: '2026-07-15', time: '09:00' }, 'Europe/Paris')).toBe(utc(2026, 6, 15, 7, 0));
    expect(momentOf({ date: '2026-07-15', time: '09:00' }, 'America/New_York')).toBe(utc(2026, 6, 15, 13, 0));
    expect(momentOf({ date: '2026-01-16', time: '00:15' }, 'Asia/Kolkata')).toBe(utc(2026, 0, 15, 18, 45));
    // 02:30 does not happen in Paris on 29 March 2026 (02:00 becomes 03:00): read an hour later, 03:30.
    expect(momentOf({ date: '2026-03-29', time: '02:30' }, 'Europe/Paris')).toBe(utc(2026, 2, 29, 1, 30));
    expect(wallTimeAt(utc(2026, 2, 29, 1, 30), 'Europe/Paris')).toEqual({ date: '2026-03-29', time: '03:30' });
  });

  it('refuses what is not a day and a time', () => {
    for (const wall of [{ date: '2026-02-30', time: '09:00' }, { date: '2026-01-15', time: '25:00' }, { date: '2026-01-15', time: '9:00' }, { date: '', time: '' }, { date: '15/01/2026', time: '09:00' }]) {
      expect(momentOf(wall, 'Europe/Paris'), JSON.stringify(wall)).toBeUndefined();
    }
  });

  it('names the wall time of a moment in a zone, the day included', () => {
    expect(wallTimeAt(utc(2026, 0, 15, 23, 30), 'Asia/Tokyo')).toEqual({ date: '2026-01-16', time: '08:30' });
    expect(wallTimeAt(utc(2026, 0, 15, 3, 5), 'America/Los_Angeles')).toEqual({ date: '2026-01-14', time: '19:05' });
  });

  it('offers in an hour, tomorrow at 9:00 and next Monday at 9:00, on the person’s calendar', () => {
    const choices = (now: number, zone: string) => scheduleChoices(now, zone).map((choice) => [choice.label, choice.at]);
    // A Wednesday in Paris.
    const wednesday = utc(2026, 0, 14, 10, 0);
    expect(choices(wednesday, 'Europe/Paris')).toEqual([
      ['In 1 hour', wednesday + 3_600_000],
      ['Tomorrow at 9:00', utc(2026, 0, 15, 8, 0)],
      ['Next Monday at 9:00', utc(2026, 0, 19, 8, 0)],
    ]);
    // Late on Wednesday in UTC is Thursday morning in Tokyo: tomorrow is Friday there.
    expect(choices(utc(2026, 0, 14, 23, 30), 'Asia/Tokyo').slice(1)).toEqual([
      ['Tomorrow at 9:00', utc(2026, 0, 16, 0, 0)],
      ['Next Monday at 9:00', utc(2026, 0, 19, 0, 0)],
    ]);
    // On a Sunday, tomorrow is that Monday, offered once; on a Monday, next Monday is a week on.
    expect(choices(utc(2026, 0, 18, 12, 0), 'Europe/Paris').map(([label]) => label)).toEqual(['In 1 hour', 'Tomorrow at 9:00']);
    expect(choices(utc(2026, 0, 19, 12, 0), 'Europe/Paris')[2]).toEqual(['Next Monday at 9:00', utc(2026, 0, 26, 8, 0)]);
  });
});
