import { describe, expect, it } from 'vitest';
import { appAbilities, refusedRoutingField, type AppAbility } from '../../src/core/policies/developerAccess.js';

// What a person or an app's secret may do with an app, answered without throwing; the methods that turn
// the answer into UnknownApp or PermissionDenied are tested through the API (developer.test.ts, the matrix).
describe('appAbilities', () => {
  const app = { id: 'a:app', developer_id: 'u:dev', team_id: 't:a' };
  const person = (id: string, role: 'user' | 'admin' | 'guest' = 'user', team_id = 't:a') => ({ person: { id, team_id, role } });
  const sorted = (abilities: ReadonlySet<AppAbility>) => [...abilities].sort();

  it.each([
    ['its developer', person('u:dev'), ['credentials', 'delete', 'deliveries', 'edit', 'route', 'see']],
    ['its developer, even as a guest', person('u:dev', 'guest'), ['credentials', 'delete', 'deliveries', 'edit', 'route', 'see']],
    ['the app itself', { appItself: 'a:app' }, ['credentials', 'deliveries', 'edit', 'route', 'see']],
    ['a team admin', person('u:adam', 'admin'), ['delete', 'edit', 'see']],
    ['an admin of another team', person('u:eve', 'admin', 't:b'), []],
    ['a member who is not the developer', person('u:bob'), []],
    ['another app', { appItself: 'a:other' }, []],
  ] as const)('%s: %o', (_who, who, abilities) => {
    expect(sorted(appAbilities(app, who))).toEqual(abilities);
  });

  it('answers nothing for an app that does not exist, whoever asks', () => {
    expect(appAbilities(undefined, person('u:dev')).size).toBe(0);
    expect(appAbilities(undefined, { appItself: 'a:app' }).size).toBe(0);
  });
});

describe('refusedRoutingField', () => {
  it('names the first field that decides where events go, unless the caller may route them', () => {
    const teamAdmin = appAbilities({ id: 'a:app', developer_id: 'u:dev', team_id: 't:a' }, { person: { id: 'u:adam', team_id: 't:a', role: 'admin' } });
    expect(refusedRoutingField(teamAdmin, { name: 'Renamed', description: 'D' })).toBeUndefined();
    expect(refusedRoutingField(teamAdmin, { name: 'Renamed', allowedOrigins: ['https://x.example'] })).toBe('allowedOrigins');
    expect(refusedRoutingField(teamAdmin, { listenerUrl: null })).toBe('listenerUrl');
    expect(refusedRoutingField(new Set<AppAbility>(['route']), { listenerUrl: 'https://x.example/events' })).toBeUndefined();
  });
});
