import { doNotDisturbActive, offsetAt } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { dayStart } from '../../src/core/search/searchFilters.js';
import { up as zonesFromOffsets } from '../../src/store/migrations/0031_time_zones.js';
import { forEachDialect } from '../helpers/server.js';
import { expectError, sessionFor } from './harness.js';

/**
 * A person's time zone is an IANA zone: users.getInfo answers the specification's offset as it is at the
 * server's clock (here the test's), so it moves at a daylight-saving change; do-not-disturb and search
 * days are read in the zone. Paris moves from +01:00 to +02:00 at 01:00 UTC on 29 March 2026.
 */
const PARIS_SPRING_CHANGE = Date.UTC(2026, 2, 29, 1, 0);
let clock = PARIS_SPRING_CHANGE - 60_000;

forEachDialect(
  'time zones',
  (t) => {
    it('answers the zone and its offset at the server’s clock, which moves across daylight saving', async () => {
      const team = await t().f.team();
      const ann = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ann' }));
      expect((await ann.call('users.getInfo')).body).toMatchObject({ timezone: '+00:00', timeZone: 'UTC' });
      expect((await ann.call('users.updateProfile', { timezone: 'Europe/Paris' })).body.user).toMatchObject({ timezone: '+01:00', timeZone: 'Europe/Paris' });
      clock = PARIS_SPRING_CHANGE;
      expect((await ann.call('users.getInfo')).body).toMatchObject({ timezone: '+02:00', timeZone: 'Europe/Paris' });
      clock = PARIS_SPRING_CHANGE - 60_000;
    });

    it('keeps an offset given as a zone that has it, and refuses what is neither, naming timezone', async () => {
      const team = await t().f.team();
      const ann = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ann' }));
      expect((await ann.call('users.updateProfile', { timezone: '+01:00' })).body.user).toMatchObject({ timezone: '+01:00', timeZone: 'Etc/GMT-1' });
      expect((await ann.call('users.updateProfile', { timezone: '-03:00' })).body.user).toMatchObject({ timezone: '-03:00', timeZone: 'Etc/GMT+3' });
      for (const wrong of ['Mars/Olympus_Mons', '+25:00', 'Etc/GMT+99']) {
        expectError(await ann.call('users.updateProfile', { timezone: wrong }), { error: 'InvalidParameter', parameter: 'timezone', description: /IANA time zone/ });
      }
      expectError(await ann.call('users.updateProfile', { timezone: 'x'.repeat(65) }), { error: 'InvalidParameter', parameter: 'timezone', description: /at most 64/ });
    });

    it('reads a do-not-disturb schedule in the zone: the same night ends an hour earlier in UTC after the change', async () => {
      const team = await t().f.team();
      const ann = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ann', timezone: 'Europe/Paris' }));
      const everyDay = [0, 1, 2, 3, 4, 5, 6];
      await ann.call('notifications.setDoNotDisturb', { schedule: { days: everyDay, start: '22:00', end: '07:00' } });
      const { settings } = (await ann.call('notifications.getSettings')).body;
      expect(settings.timeZone).toBe('Europe/Paris');
      // Saturday 22:30 in Paris (winter time), and Sunday 06:30 and 07:30 (summer time).
      expect(doNotDisturbActive(settings, Date.UTC(2026, 2, 28, 21, 30))).toBe(true);
      expect(doNotDisturbActive(settings, Date.UTC(2026, 2, 29, 4, 30))).toBe(true);
      expect(doNotDisturbActive(settings, Date.UTC(2026, 2, 29, 5, 30))).toBe(false);
    });

    it('migrates offsets kept before zones to zones that have them', async () => {
      const team = await t().f.team();
      const people = await Promise.all(['+00:00', '+01:00', '-05:00', '+05:30', '+01:30'].map((offset) => t().f.person(team.id, { firstName: offset })));
      const db = t().testStore.store.db;
      for (const person of people) await db.updateTable('users').set({ timezone: person.first_name }).where('id', '=', person.id).execute();
      const paris = await t().f.person(team.id, { firstName: 'Zoe', timezone: 'Europe/Paris' });
      await zonesFromOffsets(db as never);
      const zones = await db.selectFrom('users').select(['first_name', 'timezone']).where('team_id', '=', team.id).orderBy('first_name').execute();
      expect(Object.fromEntries(zones.map((row) => [row.first_name, row.timezone]))).toEqual({
        '+00:00': 'UTC',
        '+01:00': 'Etc/GMT-1',
        '-05:00': 'Etc/GMT+5',
        '+05:30': 'Asia/Kolkata',
        '+01:30': 'Etc/GMT-2',
        [paris.first_name]: 'Europe/Paris',
      });
    });
  },
  {},
  { now: () => clock },
);

describe('time zone arithmetic', () => {
  it('gives the offset at each instant, and Etc zones count the other way', () => {
    expect(offsetAt('Europe/Paris', PARIS_SPRING_CHANGE - 1)).toBe('+01:00');
    expect(offsetAt('Europe/Paris', PARIS_SPRING_CHANGE)).toBe('+02:00');
    expect(offsetAt('Etc/GMT-1', PARIS_SPRING_CHANGE)).toBe('+01:00');
    expect(offsetAt('Asia/Kathmandu', PARIS_SPRING_CHANGE)).toBe('+05:45');
  });

  it('starts a search day at the zone’s midnight, so the day of the change is 23 hours long', () => {
    expect(dayStart('2026-03-29', 'Europe/Paris')).toBe(Date.UTC(2026, 2, 28, 23, 0));
    expect(dayStart('2026-03-30', 'Europe/Paris')).toBe(Date.UTC(2026, 2, 29, 22, 0));
    expect(dayStart('2026-03-29', 'UTC')).toBe(Date.UTC(2026, 2, 29));
  });
});
