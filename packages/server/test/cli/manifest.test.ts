import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppManifest, toJsonSchema } from '@aviary/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../helpers/dialects.js';
import { repoRoot, runCli, runCliJson, tempDataDir } from './cli.js';
import { cliStore, teamWithDeveloper, type CliStore } from './stores.js';

const schemaFile = join(repoRoot, 'docs/app-manifest.schema.json');

describe('docs/app-manifest.schema.json', () => {
  it('is the protocol’s AppManifest as JSON Schema (AVIARY_WRITE_SCHEMAS=1 rewrites it)', () => {
    const written = `${JSON.stringify(toJsonSchema(AppManifest), null, 2)}\n`;
    if (process.env.AVIARY_WRITE_SCHEMAS === '1') writeFileSync(schemaFile, written);
    expect(readFileSync(schemaFile, 'utf8')).toBe(written);
  });
});

describe.each(dialects)('app deploy and app export (%s)', (dialect) => {
  let store: CliStore;
  let on: string[];
  let developerId: string;
  const files = tempDataDir();
  const file = (name: string, content: unknown): string => {
    const path = join(files.dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  beforeAll(async () => {
    store = await cliStore(dialect);
    on = store.on;
    ({ developerId } = await teamWithDeveloper(on));
  });
  afterAll(async () => {
    await store.remove();
    files.remove();
  });

  const manifest = {
    name: 'Weather',
    description: 'Forecasts in the chat',
    listenerUrl: 'https://weather.example/events',
    integrations: { slashCommands: [{ name: 'weather', description: 'the forecast', action: { type: 'sendEvent' } }], previewDomains: ['weather.example'] },
    allowedOrigins: ['https://widgets.weather.example'],
  };

  it('creates the app, then deploying the same manifest again changes nothing, and a change updates only what changed', async () => {
    const path = file('aviary.app.json', manifest);
    const created = await runCliJson(['app', 'deploy', '--manifest', path, '--developer', developerId, ...on]);
    expect(created).toEqual({ action: 'created', app: expect.objectContaining({ ...manifest, developerId, secret: expect.stringMatching(/^as_/) }), changed: expect.any(Array) });

    const again = await runCliJson(['app', 'deploy', '--manifest', path, '--developer', developerId, ...on]);
    expect(again).toEqual({ action: 'unchanged', app: expect.objectContaining({ id: created.app.id, updatedAt: created.app.updatedAt }), changed: [] });

    const changed = file('changed.json', { ...manifest, listenerUrl: 'https://weather.example/v2/events', description: undefined });
    const updated = await runCliJson(['app', 'deploy', '--manifest', changed, '--developer', developerId, ...on]);
    expect(updated).toEqual({ action: 'updated', app: expect.objectContaining({ id: created.app.id, description: '', listenerUrl: 'https://weather.example/v2/events' }), changed: ['description', 'listenerUrl'] });
    const text = await runCli(['app', 'deploy', '--manifest', path, '--developer', developerId, ...on]);
    expect(text.stdout).toBe(`Updated "Weather" ${created.app.id}: description, listenerUrl.\n`);

    // Flock-compatible naming: on where the manifest says so, off again where it leaves it out.
    const flockNamed = file('flock.json', { ...manifest, flockNaming: true });
    expect(await runCliJson(['app', 'deploy', '--manifest', flockNamed, '--developer', developerId, ...on])).toEqual(
      expect.objectContaining({ action: 'updated', app: expect.objectContaining({ flockNaming: true }), changed: ['flockNaming'] }),
    );
    expect((await runCliJson(['app', 'export', '--app', created.app.id, ...on])).flockNaming).toBe(true);
    expect((await runCliJson(['app', 'deploy', '--manifest', path, '--developer', developerId, ...on])).changed).toEqual(['flockNaming']);

    // Event subscriptions: the list where the manifest has one, the defaults where it leaves it out.
    const subscribed = file('subscribed.json', { ...manifest, eventSubscriptions: ['client.slashCommand'] });
    expect((await runCliJson(['app', 'deploy', '--manifest', subscribed, '--developer', developerId, ...on])).changed).toEqual(['eventSubscriptions']);
    expect((await runCliJson(['app', 'export', '--app', created.app.id, ...on])).eventSubscriptions).toEqual(['client.slashCommand']);
    const back = await runCliJson(['app', 'deploy', '--manifest', path, '--developer', developerId, ...on]);
    expect(back).toEqual(expect.objectContaining({ app: expect.objectContaining({ eventSubscriptions: null }), changed: ['eventSubscriptions'] }));
  });

  it('export writes a manifest that deploys back to the same app unchanged, matched by its id', async () => {
    const { id } = await runCliJson(['app', 'create', '--name', 'Exported', '--developer', developerId, '--slash-command', 'poll', '--allowed-origin', 'https://poll.example', ...on]);
    const out = join(files.dir, 'exported.json');
    expect(await runCliJson(['app', 'export', '--app', id, '--out', out, ...on])).toEqual({ app: id, out });
    const exported = JSON.parse(readFileSync(out, 'utf8'));
    expect(exported).toEqual({
      id, name: 'Exported', integrations: { slashCommands: [{ name: 'poll', action: { type: 'sendEvent' } }], previewDomains: [] }, allowedOrigins: ['https://poll.example'],
    });
    expect(await runCliJson(['app', 'export', '--app', id, ...on])).toEqual(exported);
    // No --developer: the id says which app.
    expect(await runCliJson(['app', 'deploy', '--manifest', out, ...on])).toEqual(expect.objectContaining({ action: 'unchanged', changed: [] }));
    const renamed = file('renamed.json', { ...exported, name: 'Exported v2' });
    expect(await runCliJson(['app', 'deploy', '--manifest', renamed, ...on])).toEqual(expect.objectContaining({ action: 'updated', changed: ['name'] }));
  });

  it('refuses a manifest that breaks the schema or core’s checks, naming the field, and changes nothing', async () => {
    const failure = async (content: unknown, ...more: string[]) => {
      const result = await runCli(['app', 'deploy', '--manifest', file('bad.json', content), '--json', ...more, ...on]);
      expect(result.code).toBe(1);
      return JSON.parse(result.stdout);
    };
    expect(await failure('{ not json', '--developer', developerId)).toEqual({ error: 'InvalidOption', description: expect.stringContaining('is not valid JSON') });
    expect(await failure({ ...manifest, colour: 'red' }, '--developer', developerId)).toEqual({ error: 'ManifestInvalid', description: expect.stringContaining('colour') });
    // Said in words, as the methods say it, not as the pattern that refused it.
    expect(await failure({ ...manifest, listenerUrl: 'ftp://weather.example' }, '--developer', developerId)).toEqual({
      error: 'ManifestInvalid',
      description: expect.stringMatching(/"manifest\.listenerUrl" must be the http or https URL its events are POSTed to; got "ftp:\/\/weather\.example"\.$/),
    });
    expect(await failure({ ...manifest, name: 'Fresh', allowedOrigins: ['https://a.example/path'] }, '--developer', developerId)).toEqual({
      error: 'ManifestInvalid', description: expect.stringMatching(/allowedOrigins\[0\]/),
    });
    expect(await failure({ ...manifest, id: 'a:nosuchapp000000' })).toEqual({ error: 'ManifestInvalid', description: expect.stringContaining('names no app') });
    expect(await failure({ ...manifest, name: 'Nobody’s' })).toEqual({ error: 'InvalidUsage', description: expect.stringContaining('--developer') });
    const { apps } = await runCliJson(['app', 'list', '--developer', developerId, ...on]);
    expect(apps.map((app: { name: string }) => app.name)).not.toContain('Fresh');
  });
});
