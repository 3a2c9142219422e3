import { expect, it } from 'vitest';
import { api, methodsByName } from '@aviary/protocol';
import { ConfigError, loadConfig } from '../../src/config.js';
import { pruneAuditLog } from '../../src/core/audit/prune.js';
import { recordAudit } from '../../src/core/audit/record.js';
import { forEachDialect } from '../helpers/server.js';
import { call, PASSWORD, signIn } from './harness.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** audit.list (admins only, filters, keyset paging newest first) and the retention of the log. */
forEachDialect('the audit log: reading and retention', (t) => {
  /** A team with an admin and a member signed in, and `count` rows a minute apart from a fixed time. */
  const logged = async (count: number, base = 1_700_000_000_000) => {
    const team = await t().f.team();
    const admin = await t().f.person(team.id, { role: 'admin', password: PASSWORD });
    const member = await t().f.person(team.id, { password: PASSWORD });
    const db = t().testStore.store.db;
    for (let n = 0; n < count; n++) {
      const actor = n % 2 === 0 ? admin.id : member.id;
      await recordAudit(db, { teamId: team.id, at: base + n * 60_000, actor: { userId: actor, address: '198.51.100.1' }, action: n % 3 === 0 ? 'app.created' : 'session.signIn', target: { kind: 'user', id: n % 4 === 0 ? member.id : admin.id }, details: { n } });
    }
    return { team, admin, member, adminToken: await signIn(t(), admin.email!), memberToken: await signIn(t(), member.email!), base };
  };

  it('only a team admin reads it, and only their team’s rows', async () => {
    const { adminToken, memberToken, team } = await logged(3);
    const other = await logged(2);
    expect((await call(t(), 'audit.list', {}, memberToken)).body).toMatchObject({ error: 'PermissionDenied' });
    const mine = await call(t(), 'audit.list', {}, adminToken);
    expect(mine.status).toBe(200);
    // The three rows, and both sign-ins of signIn() above.
    expect(mine.body.entries).toHaveLength(5);
    const ids = new Set((await t().testStore.store.db.selectFrom('audit_log').select('id').where('team_id', '=', team.id).execute()).map((row) => row.id));
    expect(mine.body.entries.every((entry: { id: string }) => ids.has(entry.id))).toBe(true);
    expect(other.team.id).not.toBe(team.id);
  });

  it('pages newest first by cursor, with filters by action prefix, actor, target and time', async () => {
    const { adminToken, admin, member, base } = await logged(12);
    const since = base;
    const until = base + 12 * 60_000;
    const all: any[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(t(), 'audit.list', { since, until, limit: 5, ...(cursor ? { cursor } : {}) }, adminToken);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.entries.length).toBeLessThanOrEqual(5);
      all.push(...page.body.entries);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(all.map((entry) => entry.details.n)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(all[0]).toMatchObject({ actorUserId: member.id, actorName: `${member.first_name} ${member.last_name}`, address: '198.51.100.1', targetKind: 'user', actorAppId: null });

    const list = async (params: object) => (await call(t(), 'audit.list', { since, until, ...params }, adminToken)).body.entries.map((entry: any) => entry.details.n);
    expect(await list({ action: 'app.' })).toEqual([9, 6, 3, 0]);
    expect(await list({ action: 'SESSION.sign' })).toEqual([11, 10, 8, 7, 5, 4, 2, 1]);
    expect(await list({ action: 'app_' })).toEqual([]);
    expect(await list({ actorUserId: admin.id })).toEqual([10, 8, 6, 4, 2, 0]);
    expect(await list({ targetId: member.id })).toEqual([8, 4, 0]);
    expect(await list({ since: base + 3 * 60_000, until: base + 6 * 60_000 })).toEqual([5, 4, 3]);
  });

  it('refuses a bad cursor, page size or filter with the parameter named', async () => {
    const { adminToken } = await logged(1);
    expect((await call(t(), 'audit.list', { cursor: 'nonsense' }, adminToken)).body).toMatchObject({ error: 'InvalidParameter', parameter: 'cursor' });
    expect((await call(t(), 'audit.list', { limit: 1000 }, adminToken)).body).toMatchObject({ error: 'InvalidParameter', parameter: 'limit' });
    expect((await call(t(), 'audit.list', { action: 'x'.repeat(101) }, adminToken)).body).toMatchObject({ error: 'InvalidParameter', parameter: 'action' });
    expect((await call(t(), 'audit.list', { delete: true }, adminToken)).body).toMatchObject({ error: 'InvalidParameter' });
  });

  it('no method changes a row: audit.list is the only audit method, and it reads', async () => {
    expect(Object.keys(api.audit)).toEqual(['list']);
    expect([...methodsByName.keys()].filter((name) => name.startsWith('audit.'))).toEqual(['audit.list']);
  });

  it('takes its retention from AVIARY_AUDIT_RETENTION_DAYS: a year by default, a whole number above 0', () => {
    expect(loadConfig({}, {}).auditRetentionDays).toBe(365);
    expect(loadConfig({}, { AVIARY_AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
    expect(() => loadConfig({}, { AVIARY_AUDIT_RETENTION_DAYS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({}, { AVIARY_AUDIT_RETENTION_DAYS: 'a year' })).toThrow(/AVIARY_AUDIT_RETENTION_DAYS/);
  });

  it('the retention job deletes rows older than the setting, in batches, and counts them in the metrics', async () => {
    const db = t().testStore.store.db;
    const now = Date.now();
    const { team } = await logged(0);
    for (const daysAgo of [400, 380, 366, 364, 10]) {
      await recordAudit(db, { teamId: team.id, at: now - daysAgo * DAY_MS, actor: { userId: null, address: null }, action: 'test.old', target: { kind: 'team', id: team.id }, details: { daysAgo } });
    }
    const left = async () => (await db.selectFrom('audit_log').select('details').where('team_id', '=', team.id).where('action', '=', 'test.old').orderBy('at').execute()).map((row) => JSON.parse(row.details).daysAgo);
    // Batches of one: several statements, each short.
    expect(await pruneAuditLog(db, now, 370, 1)).toBeGreaterThanOrEqual(2);
    expect(await left()).toEqual([366, 364, 10]);

    const scrape = async () => Number(/^aviary_retention_deleted_total\{kind="audit"\} (\S+)$/m.exec(await (await fetch(`${t().url}/metrics`)).text())?.[1] ?? 0);
    const before = await scrape();
    await t().server.retention.runOnce();
    // The server's setting: a year by default.
    expect(t().server.ctx.config.auditRetentionDays).toBe(365);
    expect(await left()).toEqual([364, 10]);
    expect((await scrape()) - before).toBeGreaterThanOrEqual(1);
  });
});
