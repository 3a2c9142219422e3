import { afterAll, expect, it } from 'vitest';
import { pollApp, tally } from '../../../../examples/poll/app.js';
import { urlPreview } from '../../../../examples/url-preview/app.js';
import { createChannel } from '../../src/core/commands/channels.js';
import { closeSdkApps, sessionFor } from '../client/harness.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { exampleServer } from './serveExample.js';

afterAll(closeSdkApps);

/** A team with Alice (the developer) and Bob, and the example app at its own URL with `integrations`. */
async function exampleCast(t: TestServer, integrations: unknown) {
  const team = await t.f.team();
  const aliceRow = await t.f.person(team.id, { firstName: 'Alice', lastName: 'Archer' });
  const bobRow = await t.f.person(team.id, { firstName: 'Bob', lastName: 'Baker' });
  const served = await exampleServer();
  const app = await t.f.app(team.id, aliceRow.id, { listenerUrl: served.url, integrations });
  for (const person of [aliceRow, bobRow]) await t.f.install(app.id, person.id);
  const bot = await t.f.bot(app.id);
  return { app, bot, served, alice: await sessionFor(t, aliceRow), bob: await sessionFor(t, bobRow) };
}

it('tallies one vote per person, the last one counting', () => {
  const votes = new Map([['u1', 0], ['u2', 1], ['u3', 1]]);
  expect(tally({ question: 'Lunch?', options: ['Pizza', 'Sushi', 'Soup'], votes })).toBe('Lunch? Pizza 1 · Sushi 2 · Soup 0');
});

forEachDialect('examples', (t) => {
  it('url-preview: a link to its domain gets the attachment the app makes', async () => {
    const { app, served, alice, bob } = await exampleCast(t(), { previewDomains: ['docs.example.test'] });
    served.serve(urlPreview({ appId: app.id, appSecret: app.secret, domain: 'docs.example.test' }));
    const sent = await alice.post('/messages', { to: bob.user.id, text: 'Read https://docs.example.test/guide please' });
    await t().server.ctx.background.settled();
    const [seen] = (await bob.get('/messages', { chat: alice.user.id })).body.messages;
    expect(seen.uid).toBe(sent.body.message.uid);
    expect(seen.attachments).toEqual([
      { appId: app.id, title: 'docs.example.test/guide', description: 'A page of our documentation', url: 'https://docs.example.test/guide' },
    ]);
  });

  it('poll: /poll posts the question with a button per answer, and each vote posts the tally', async () => {
    const { app, bot, served, alice, bob } = await exampleCast(t(), {
      slashCommands: [{ name: 'poll', description: 'Ask the channel', action: { type: 'sendEvent' } }],
    });
    served.serve(pollApp({ appId: app.id, appSecret: app.secret, botToken: bot.botToken, baseUrl: t().url }));
    const { channel } = await createChannel(t().server.ctx, alice.user, { name: `lunch-${app.id.slice(2, 8)}`, members: [bob.user.id] }, Date.now());

    const usage = await alice.post('/messages', { to: channel.id, text: '/poll Lunch?' });
    expect(usage.body.answer).toEqual({ kind: 'toast', text: expect.stringMatching(/^Usage: \/poll/) });
    const asked = await alice.post('/messages', { to: channel.id, text: '/poll Lunch? | Pizza | Sushi' });
    expect(asked.body.answer).toEqual({ kind: 'toast', text: 'Poll posted' });
    const [poll] = (await bob.get('/messages', { chat: channel.id })).body.messages;
    expect(poll).toMatchObject({ text: 'Poll: Lunch?', attachments: [{ id: 'poll-1', title: 'Lunch?', buttons: [{ id: 'vote-0', name: 'Pizza' }, { id: 'vote-1', name: 'Sushi' }] }] });

    const vote = (who: typeof alice, buttonId: string) =>
      who.post('/actions/pressButton', { button: 'attachmentButton', messageUid: poll.uid, attachmentId: 'poll-1', buttonId });
    expect((await vote(bob, 'vote-1')).body).toEqual({ kind: 'toast', text: 'Voted Sushi' });
    expect((await vote(alice, 'vote-0')).body).toEqual({ kind: 'toast', text: 'Voted Pizza' });
    expect((await vote(alice, 'vote-1')).body).toEqual({ kind: 'toast', text: 'Voted Sushi' });
    const history = (await alice.get('/messages', { chat: channel.id })).body.messages.map((message: { text: string }) => message.text);
    expect(history.slice(0, 3).reverse()).toEqual(['Lunch? Pizza 0 · Sushi 1', 'Lunch? Pizza 1 · Sushi 1', 'Lunch? Pizza 0 · Sushi 2']);
  });
});
