import { describe, expect, it } from 'vitest';
import { appDisabledBy, appUseRefusal } from '../../src/core/policies/apps.js';

// The one answer to "may this person use this app?"; the routes that ask it are tested through the API.
describe('appUseRefusal', () => {
  it.each([
    [{ disabledByTeam: 0, installed: true, disabledByUser: 0 }, undefined],
    [{ disabledByTeam: 0, installed: false, disabledByUser: null }, 'notInstalled'],
    // A missing install is told before a team admin's switch: the person cannot enable an app they never installed.
    [{ disabledByTeam: 1, installed: false, disabledByUser: null }, 'notInstalled'],
    [{ disabledByTeam: 1, installed: true, disabledByUser: 1 }, 'disabledByTeam'],
    [{ disabledByTeam: 0, installed: true, disabledByUser: 1 }, 'disabledByUser'],
  ] as const)('%o → %s', (use, refusal) => {
    expect(appUseRefusal(use)).toBe(refusal);
  });

  it('asks only the switches when no install is needed', () => {
    expect(appDisabledBy({ disabledByTeam: 0, disabledByUser: null })).toBeUndefined();
    expect(appDisabledBy({ disabledByTeam: true, disabledByUser: true })).toBe('disabledByTeam');
    expect(appDisabledBy({ disabledByTeam: false, disabledByUser: 1 })).toBe('disabledByUser');
  });
});
