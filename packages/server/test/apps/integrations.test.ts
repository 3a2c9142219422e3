import { describe, expect, it } from 'vitest';
import { setAppDisabledForTeam, setInstallDisabled } from '../../src/core/commands/apps.js';
import { appsForPreviewDomain, findSlashCommand, previewDomainMatches, readIntegrations, validateIntegrations } from '../../src/core/integrations.js';
import { increasingClock } from '../helpers/clock.js';
import { forEachDialect } from '../helpers/server.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

const command = (name: string, url?: string) => ({ name, action: url ? { type: 'openWidget', url } : { type: 'sendEvent' } });

describe('preview domain patterns', () => {
  it('match a host exactly, or with *. its subdomains only', () => {
    expect(previewDomainMatches('example.com', 'example.com')).toBe(true);
    expect(previewDomainMatches('example.com', 'EXAMPLE.com.')).toBe(true);
    expect(previewDomainMatches('example.com', 'www.example.com')).toBe(false);
    expect(previewDomainMatches('example.com', 'badexample.com')).toBe(false);
    expect(previewDomainMatches('*.example.com', 'sub.example.com')).toBe(true);
    expect(previewDomainMatches('*.example.com', 'a.b.example.com')).toBe(true);
    expect(previewDomainMatches('*.example.com', 'example.com')).toBe(false);
    expect(previewDomainMatches('*.example.com', 'notexample.com')).toBe(false);
  });

  it('an app stored before integrations existed reads as having none', () => {
    expect(readIntegrations({ integrations: '{}' })).toEqual({ slashCommands: [], previewDomains: [] });
    expect(validateIntegrations({})).toEqual({ ok: true, value: { slashCommands: [], previewDomains: [] } });
  });
});

// Install times are in milliseconds; the clock never reads the same twice, so the order of installs shows in them.
forEachDialect('finding integrations', (t) => {
  it('findSlashCommand: only apps the person installed and nobody disabled; the first installed wins a shared name', async () => {
    const db = t().testStore.store.db;
    const team = await t().f.team();
    const alice = await t().f.person(team.id);
    const bob = await t().f.person(team.id);
    const first = await t().f.app(team.id, alice.id, { integrations: { slashCommands: [command('poll'), command('todo', 'https://a.example/todo')] } });
    const second = await t().f.app(team.id, alice.id, { integrations: { slashCommands: [command('poll', 'https://b.example/poll'), command('vote')] } });
    await t().f.install(first.id, alice.id);
    await t().f.install(second.id, alice.id);

    expect(await findSlashCommand(db, team.id, alice.id, 'poll')).toMatchObject({ app: { id: first.id }, command: { name: 'poll', action: { type: 'sendEvent' } } });
    expect(await findSlashCommand(db, team.id, alice.id, 'vote')).toMatchObject({ app: { id: second.id } });
    expect(await findSlashCommand(db, team.id, alice.id, 'Vote')).toBeUndefined();
    expect(await findSlashCommand(db, team.id, alice.id, 'nothing')).toBeUndefined();
    expect(await findSlashCommand(db, team.id, bob.id, 'poll')).toBeUndefined();

    await setInstallDisabled(storeContext(db), { id: alice.id }, { appId: first.id, disabled: true });
    expect(await findSlashCommand(db, team.id, alice.id, 'poll')).toMatchObject({ app: { id: second.id }, command: { action: { url: 'https://b.example/poll' } } });
    expect(await findSlashCommand(db, team.id, alice.id, 'todo')).toBeUndefined();
    await setAppDisabledForTeam(storeContext(db), cliActor, { appId: second.id, disabled: true });
    expect(await findSlashCommand(db, team.id, alice.id, 'poll')).toBeUndefined();
    expect(await findSlashCommand(db, (await t().f.team()).id, alice.id, 'vote')).toBeUndefined();
  });

  it('appsForPreviewDomain: the apps the sender installed and nobody disabled whose patterns cover the host', async () => {
    const db = t().testStore.store.db;
    const team = await t().f.team();
    const dev = await t().f.person(team.id);
    const sender = await t().f.person(team.id);
    const exact = await t().f.app(team.id, dev.id, { integrations: { previewDomains: ['docs.example'] } });
    const wildcard = await t().f.app(team.id, dev.id, { integrations: { previewDomains: ['*.docs.example'] } });
    const notInstalled = await t().f.app(team.id, dev.id, { integrations: { previewDomains: ['docs.example', '*.docs.example'] } });
    for (const app of [exact, wildcard]) await t().f.install(app.id, sender.id);
    await t().f.install(notInstalled.id, dev.id);

    const ids = async (host: string, senderId = sender.id) => (await appsForPreviewDomain(db, senderId, host)).map((app) => app.id);
    expect(await ids('docs.example')).toEqual([exact.id]);
    expect(await ids('api.docs.example')).toEqual([wildcard.id]);
    expect(await ids('example')).toEqual([]);
    expect(await ids('docs.example', dev.id)).toEqual([notInstalled.id]);
    await setInstallDisabled(storeContext(db), { id: sender.id }, { appId: wildcard.id, disabled: true });
    expect(await ids('api.docs.example')).toEqual([]);
    await setAppDisabledForTeam(storeContext(db), cliActor, { appId: exact.id, disabled: true });
    expect(await ids('docs.example')).toEqual([]);
  });

  it('the createApp command validates integrations too, and stores nothing invalid', async () => {
    const team = await t().f.team();
    const dev = await t().f.person(team.id);
    // Named as the developer methods name it: createApp checks every app field (core/appFields.ts).
    await expect(t().f.app(team.id, dev.id, { integrations: { previewDomains: ['UPPER.example'] } })).rejects.toMatchObject({
      code: 'InvalidParameter',
      context: { parameter: 'integrations.previewDomains[0]' },
      message: expect.stringMatching(/lower case/),
    });
    expect(await t().testStore.store.db.selectFrom('apps').selectAll().where('team_id', '=', team.id).execute()).toEqual([]);
  });
}, {}, { now: increasingClock() });
