import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialects } from '../helpers/dialects.js';
import { runCli, runCliJson } from './cli.js';
import { cliScratch, teamWithDeveloper } from './stores.js';

/**
 * What the command line records in the audit log (retention changed, team exported and imported), with
 * no person and no address, and `aviary audit export`, which writes the log as JSON lines.
 */
describe('the audit log from the command line', () => {
  const { fresh, scratch } = cliScratch('audit');
  const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));

  for (const dialect of dialects) {
    it(`records retention changes, exports and imports, and exports the log as JSON lines [${dialect}]`, { timeout: 60_000 }, async () => {
      const store = await fresh(dialect);
      const { teamId, developerId } = await teamWithDeveloper(store.on);
      await runCliJson(['retention', 'set', '--team', teamId, '--messages', '30', ...store.on]);
      const dir = scratch();
      await runCliJson(['team', 'export', '--team', teamId, '--out', join(dir, 'team'), ...store.on]);

      const out = join(dir, 'audit.jsonl');
      expect(await runCliJson(['audit', 'export', '--team', teamId, '--out', out, '--batch', '1', ...store.on])).toEqual({ out, rows: 2 });
      const rows = lines(out);
      expect(rows.map((row) => row.action)).toEqual(['team.exported', 'retention.changed']);
      for (const row of rows) expect(row).toMatchObject({ actorUserId: null, actorAppId: null, address: null, targetKind: 'team', targetId: teamId, at: expect.any(Number) });
      expect(rows[1].details).toEqual({ messageRetentionDays: 30 });

      // Filters, and a file that exists is refused rather than overwritten.
      const filtered = join(dir, 'retention.jsonl');
      await runCliJson(['audit', 'export', '--team', teamId, '--out', filtered, '--action', 'retention.', ...store.on]);
      expect(lines(filtered).map((row) => row.action)).toEqual(['retention.changed']);
      const later = join(dir, 'later.jsonl');
      expect(await runCliJson(['audit', 'export', '--team', teamId, '--out', later, '--since', '2999-01-01', ...store.on])).toEqual({ out: later, rows: 0 });
      const again = await runCli(['audit', 'export', '--team', teamId, '--out', out, ...store.on, '--json']);
      expect(again.code).toBe(1);
      expect(JSON.parse(again.stdout)).toMatchObject({ error: 'InvalidOption', description: expect.stringContaining('exists already') });
      const unknown = await runCli(['audit', 'export', '--team', 'T:nope', '--out', join(dir, 'x.jsonl'), ...store.on, '--json']);
      expect(JSON.parse(unknown.stdout)).toMatchObject({ error: 'UnknownTeam' });

      // The team's and apps' changes made from the command line.
      await runCliJson(['team', 'update', '--team', teamId, '--app-creators', 'everyone', ...store.on]);
      const app = await runCliJson<{ id: string }>(['app', 'create', '--name', 'Audited', '--developer', developerId, ...store.on]);
      await runCliJson(['app', 'bot', '--app', app.id, '--enable', ...store.on]);
      await runCliJson(['app', 'delete', '--app', app.id, '--yes', ...store.on]);
      const changes = join(dir, 'changes.jsonl');
      await runCliJson(['audit', 'export', '--team', teamId, '--out', changes, '--since', new Date(rows[0].at).toISOString(), ...store.on]);
      expect(lines(changes).filter((row) => row.action !== 'team.exported').map((row) => [row.action, row.targetKind, row.targetId, row.actorUserId, row.address])).toEqual([
        ['app.deleted', 'app', app.id, null, null],
        ['app.botEnabled', 'app', app.id, null, null],
        ['app.created', 'app', app.id, null, null],
        ['team.settingsChanged', 'team', teamId, null, null],
      ]);

      const into = await fresh(dialect);
      const summary = await runCliJson<{ counts: Record<string, number> }>(['team', 'import', '--from', join(dir, 'team'), ...into.on]);
      const imported = join(dir, 'imported.jsonl');
      await runCliJson(['audit', 'export', '--team', teamId, '--out', imported, ...into.on]);
      // The export carried the log as it stood (the retention change); the import adds its own row.
      const importedRows = lines(imported);
      expect(importedRows.map((row) => row.action).sort()).toEqual(['retention.changed', 'team.imported']);
      expect(importedRows.find((row) => row.action === 'team.imported')).toMatchObject({ actorUserId: null, address: null, targetKind: 'team', targetId: teamId, details: { counts: summary.counts } });
      expect(importedRows.find((row) => row.action === 'retention.changed')).toMatchObject({ at: rows[1].at, details: { messageRetentionDays: 30 } });
    });
  }
});
