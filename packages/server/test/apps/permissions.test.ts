import { expect, it } from 'vitest';
import { maxAllowedOrigins } from '../../src/core/allowedOrigins.js';
import { forEachDialect } from '../helpers/server.js';
import { expectError, signedInPerson, type Person } from './harness.js';

const routing = {
  listenerUrl: 'https://collector.example/events',
  configurationUrl: 'https://collector.example/config',
  integrations: { launcherButton: { name: 'Steal', action: { type: 'openWidget', url: 'https://collector.example/w' } } },
  allowedOrigins: ['https://collector.example'],
};

forEachDialect('who may do what with apps', (t) => {
  async function teamWithApp() {
    const team = await t().f.team();
    const dev = await signedInPerson(t(), team.id);
    const admin = await signedInPerson(t(), team.id, 'admin');
    const created = await dev.call('apps.create', {
      name: 'Tracker',
      listenerUrl: 'https://tracker.example/events',
      integrations: { slashCommands: [{ name: 'track', action: { type: 'sendEvent' } }] },
      allowedOrigins: ['https://widgets.tracker.example'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return { team, dev, admin, app: created.body.app };
  }

  const readApp = async (who: Person, appId: string) => (await who.call('apps.getInfo', { appId })).body.app;

  it('lets only the developer change where the app’s events go; a team admin gets PermissionDenied naming the field', async () => {
    const { dev, admin, app } = await teamWithApp();
    const before = await readApp(dev, app.id);
    for (const [field, value] of Object.entries(routing)) {
      const refused = await admin.call('apps.update', { appId: app.id, name: 'Renamed', [field]: value });
      expectError(refused, 403, 'PermissionDenied', field);
      expect(refused.body.description).toMatch(/only the app's developer/i);
    }
    const put = await admin.call('apps.setIntegrations', { appId: app.id, integrations: routing.integrations });
    expectError(put, 403, 'PermissionDenied', 'integrations');
    expect(await readApp(dev, app.id)).toEqual(before);

    const changed = await dev.call('apps.update', { appId: app.id, ...routing });
    expect(changed.status).toBe(200);
    expect(changed.body.app).toMatchObject(routing);
    expect((await dev.call('apps.setIntegrations', { appId: app.id, integrations: {} })).status).toBe(200);
  });

  it('lets a team admin rename, describe, re-icon, disable for the team and delete another developer’s app', async () => {
    const { dev, admin, app } = await teamWithApp();
    const cosmetic = { name: 'Tracker (old)', description: 'Being retired', icon: 'https://tracker.example/grey.png' };
    const changed = await admin.call('apps.update', { appId: app.id, ...cosmetic });
    expect(changed.status).toBe(200);
    expect(changed.body.app).toMatchObject({ ...cosmetic, listenerUrl: app.listenerUrl, allowedOrigins: app.allowedOrigins });
    expect((await admin.request('POST', '/v1/apps.disableForTeam', { appId: app.id })).body).toEqual({ disabledByTeam: true });
    expect((await admin.call('apps.delete', { appId: app.id })).body).toEqual({ deleted: true });
    expectError(await dev.call('apps.getInfo', { appId: app.id }), 404, 'UnknownApp');
  });

  it('stores allowed origins normalised, shows them, clears them with null, and refuses anything but an origin', async () => {
    const { dev, app } = await teamWithApp();
    expect(app.allowedOrigins).toEqual(['https://widgets.tracker.example']);
    const set = await dev.call('apps.update', { appId: app.id, allowedOrigins: ['HTTPS://Widgets.Example:443/', 'http://localhost:8080', 'http://[::1]:3000'] });
    expect(set.body.app.allowedOrigins).toEqual(['https://widgets.example', 'http://localhost:8080', 'http://[::1]:3000']);
    expect((await dev.call('apps.listDeveloped')).body.apps[0].allowedOrigins).toEqual(set.body.app.allowedOrigins);

    const refusals: Array<[unknown, string, RegExp]> = [
      [['https://ok.example', 'https://x.example/path'], 'allowedOrigins[1]', /without a path/],
      [['https://x.example?q=1'], 'allowedOrigins[0]', /without a path, query or fragment/],
      [['https://x.example#top'], 'allowedOrigins[0]', /without a path, query or fragment/],
      [['https://user:pw@x.example'], 'allowedOrigins[0]', /user name or password/],
      [['ftp://x.example'], 'allowedOrigins[0]', /http or https/],
      [['x.example'], 'allowedOrigins[0]', /http or https/],
      [['http://a.example:99999'], 'allowedOrigins[0]', /http or https/],
      [[42], 'allowedOrigins[0]', /must be a string/],
      [['https://a.example', 'https://A.example/'], 'allowedOrigins[1]', /listed twice/],
      ['https://x.example', 'allowedOrigins', /must be a JSON array/],
      [Array.from({ length: maxAllowedOrigins + 1 }, (_, i) => `https://o${i}.example`), 'allowedOrigins', /the limit is 20/],
    ];
    for (const [allowedOrigins, parameter, description] of refusals) {
      const refused = await dev.call('apps.update', { appId: app.id, allowedOrigins });
      expectError(refused, 400, 'InvalidParameter', parameter);
      expect(refused.body.description).toMatch(description);
    }
    expect((await dev.call('apps.create', { name: 'Bad', allowedOrigins: ['https://x.example/p'] })).status).toBe(400);
    expect((await readApp(dev, app.id)).allowedOrigins).toEqual(set.body.app.allowedOrigins);
    expect((await dev.call('apps.update', { appId: app.id, allowedOrigins: null })).body.app.allowedOrigins).toEqual([]);
  });

  it('lets members and admins create apps by default, not guests; a team admin changes who may', async () => {
    const team = await t().f.team('Herons');
    const [member, admin, guest] = [await signedInPerson(t(), team.id), await signedInPerson(t(), team.id, 'admin'), await signedInPerson(t(), team.id, 'guest')];
    const create = (who: Person) => who.call('apps.create', { name: `By ${who.user.role}` });

    expect((await guest.request('POST', '/v1/team.getInfo', {})).body).toEqual({ team: { id: team.id, name: 'Herons', appCreators: 'members', whoMayInvite: 'admins', whoMayCreateChannels: 'everyone', messageEditWindowMinutes: 0, broadcastMentionLimit: 0 } });
    expect((await create(member)).status).toBe(200);
    expect((await create(admin)).status).toBe(200);
    const refused = await create(guest);
    expectError(refused, 403, 'PermissionDenied');
    expect(refused.body.description).toMatch(/members and admins, not guests.*you are a guest.*team admin can change/);

    const setTo = (who: Person, appCreators: unknown) => who.request('POST', '/v1/team.updateSettings', { appCreators });
    expectError(await setTo(member, 'everyone'), 403, 'PermissionDenied');
    expectError(await setTo(guest, 'everyone'), 403, 'PermissionDenied');
    expectError(await setTo(admin, 'guests'), 400, 'InvalidParameter', 'appCreators');
    // Every setting is optional, but one must be given.
    expectError(await admin.request('POST', '/v1/team.updateSettings', {}), 400, 'MissingParameter', 'name');
    expectError(await admin.request('POST', '/v1/team.updateSettings', { appCreators: 'admins', colour: 'blue' }), 400, 'InvalidParameter', 'colour');

    expect((await setTo(admin, 'admins')).body).toEqual({ team: { id: team.id, name: 'Herons', appCreators: 'admins', whoMayInvite: 'admins', whoMayCreateChannels: 'everyone', messageEditWindowMinutes: 0, broadcastMentionLimit: 0 } });
    expectError(await create(member), 403, 'PermissionDenied');
    expect((await create(admin)).status).toBe(200);
    expect((await setTo(admin, 'everyone')).body.team.appCreators).toBe('everyone');
    expect((await create(guest)).status).toBe(200);
    expect((await member.request('POST', '/v1/team.getInfo', {})).body.team.appCreators).toBe('everyone');

    // The setting is the team's own: another team keeps the default.
    const elsewhere = await t().f.team();
    expectError(await create(await signedInPerson(t(), elsewhere.id, 'guest')), 403, 'PermissionDenied');
  });
});
