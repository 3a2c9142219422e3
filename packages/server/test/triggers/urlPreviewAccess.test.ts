import { afterAll, expect, it } from 'vitest';
import { setAppDisabledForTeam, setInstallDisabled } from '../../src/core/commands/apps.js';
import { clientCast, closeSdkApps, startSdkApp, type SdkApp } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

afterAll(closeSdkApps);

const previewing = { previewDomains: ['tickets.example.test'] };

forEachDialect('chat.generateUrlPreview reaches only the sender’s apps', (t) => {
  const settled = () => t().server.ctx.background.settled();

  /**
   * Alice's team with four apps that cover the link's domain and would each answer with a card, none of
   * which Alice may use: Bob's (Bob is in the channel), one nobody installed, one Alice disabled, one a
   * team admin disabled. All are older than any app Alice adds, so they would be asked first.
   */
  async function appsAliceMayNotUse() {
    const cast = await clientCast(t());
    const { alice, bob } = cast;
    const db = t().testStore.store.db;
    const make = async (label: string) => {
      const made = await startSdkApp(t(), { teamId: alice.user.team_id, developerId: bob.user.id, integrations: previewing });
      made.answer = () => ({ title: `Preview by ${label}` });
      return made;
    };
    const bobs = await make('Bob’s app');
    await t().f.install(bobs.app.id, bob.user.id);
    const nobodys = await make('an app nobody installed');
    const disabledByAlice = await make('an app Alice disabled');
    await t().f.install(disabledByAlice.app.id, alice.user.id);
    await setInstallDisabled(storeContext(db), { id: alice.user.id }, { appId: disabledByAlice.app.id, disabled: true });
    const disabledByTeam = await make('an app the team disabled');
    await t().f.install(disabledByTeam.app.id, alice.user.id);
    await setAppDisabledForTeam(storeContext(db), cliActor, { appId: disabledByTeam.app.id, disabled: true });
    return { ...cast, others: [bobs, nobodys, disabledByAlice, disabledByTeam] };
  }

  const untouched = (apps: SdkApp[]) => expect(apps.map((app) => app.received.length)).toEqual(apps.map(() => 0));

  it('a private channel’s link goes only to the sender’s installed, enabled app, whose preview is added', async () => {
    const { alice, bob, channel, others } = await appsAliceMayNotUse();
    const alices = await startSdkApp(t(), { teamId: alice.user.team_id, developerId: bob.user.id, integrations: previewing });
    await t().f.install(alices.app.id, alice.user.id);
    alices.answer = () => ({ title: 'Ticket 9' });

    const sent = await alice.call('chat.sendFromComposer', { to: channel.id, text: 'see https://tickets.example.test/9' });
    await settled();
    untouched(others);
    expect(alices.received.map(({ event }) => event)).toEqual([expect.objectContaining({ name: 'chat.generateUrlPreview', userId: alice.user.id, chat: channel.id })]);
    const [seen] = (await bob.call('chat.fetchMessages', { chat: channel.id })).body;
    expect(seen).toEqual({ ...sent.body.message, attachments: [{ title: 'Ticket 9', appId: alices.app.id }] });
  });

  it('a direct message’s link reaches no app the sender may not use, and gets no preview', async () => {
    const { alice, bob, others } = await appsAliceMayNotUse();
    const sent = await alice.call('chat.sendFromComposer', { to: bob.user.id, text: 'private: https://tickets.example.test/10' });
    await settled();
    untouched(others);
    expect((await bob.call('chat.fetchMessages', { chat: alice.user.id })).body).toEqual([sent.body.message]);

    // Bob's own link, in the same chat, is his app's to preview.
    const [bobs] = others;
    const answered = await bob.call('chat.sendFromComposer', { to: alice.user.id, text: 'mine: https://tickets.example.test/11' });
    await settled();
    expect(bobs.received).toHaveLength(1);
    const [latest] = (await alice.call('chat.fetchMessages', { chat: bob.user.id })).body;
    expect(latest).toEqual({ ...answered.body.message, attachments: [{ title: 'Preview by Bob’s app', appId: bobs.app.id }] });
  });
});
