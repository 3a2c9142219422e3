import { Parser } from 'htmlparser2';
import { afterAll, expect, it } from 'vitest';
import { pollApp, tally } from '../../../../examples/poll/app.js';
import { urlPreview } from '../../../../examples/url-preview/app.js';
import { createChannel } from '../../src/core/commands/channels.js';
import { closeSdkApps, sessionFor } from '../client/harness.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { exampleServer } from './serveExample.js';

afterAll(closeSdkApps);

/** A team with Alice (the developer) and Bob, and the example app at its own URL with `integrations` (which may name the app's origin). */
async function exampleCast(t: TestServer, integrations: unknown) {
  const team = await t.f.team();
  const aliceRow = await t.f.person(team.id, { firstName: 'Alice', lastName: 'Archer' });
  const bobRow = await t.f.person(team.id, { firstName: 'Bob', lastName: 'Baker' });
  const served = await exampleServer();
  const app = await t.f.app(team.id, aliceRow.id, { listenerUrl: served.url, integrations: typeof integrations === 'function' ? integrations(served.origin) : integrations });
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
    const sent = await alice.call('chat.sendFromComposer', { to: bob.user.id, text: 'Read https://docs.example.test/guide please' });
    await t().server.ctx.background.settled();
    const [seen] = (await bob.call('chat.fetchMessages', { chat: alice.user.id })).body;
    expect(seen.uid).toBe(sent.body.message.uid);
    expect(seen.attachments).toEqual([
      { appId: app.id, title: 'docs.example.test/guide', description: 'A page of our documentation', url: 'https://docs.example.test/guide' },
    ]);
  });

  it('poll: /poll opens the compose widget, which verifies its parameters and posts the poll; votes come back as buttons and each edits the tally in the poll’s one message', async () => {
    const { app, bot, served, alice, bob } = await exampleCast(t(), (origin: string) => ({
      slashCommands: [{ name: 'poll', description: 'Ask the channel', action: { type: 'openWidget', url: `${origin}/widget`, desktopType: 'modal' } }],
    }));
    served.serve(pollApp({ appId: app.id, appSecret: app.secret, botToken: bot.botToken, baseUrl: t().url }));
    const { channel } = await createChannel(t().server.ctx, { user: alice.user, appId: null }, { name: `lunch-${app.id.slice(2, 8)}`, members: [bob.user.id] });

    // The command opens the widget, prefilled from what followed it; the page is what the client's iframe loads.
    const opened = await alice.call('chat.sendFromComposer', { to: channel.id, text: '/poll Lunch? | Pizza | <b>Sushi</b>' });
    expect(opened.body.answer).toMatchObject({ kind: 'openWidget', url: expect.stringContaining(`${served.origin}/widget?`), desktopType: 'modal' });
    const widget = await fetch(opened.body.answer.url);
    expect(widget.status).toBe(200);
    const form = composeForm(await widget.text());
    expect(form.action).toBe('polls');
    expect(form.fields).toMatchObject({ question: 'Lunch?', answers: 'Pizza\n<b>Sushi</b>', serviceWidgetType: 'modal', serviceClient: 'desktop' });
    const submit = (fields: Record<string, string>) => fetch(new URL(form.action, opened.body.answer.url), { method: 'POST', body: new URLSearchParams(fields) });

    // A form whose event was changed, or that lost its token, posts nothing.
    const event = JSON.parse(form.fields.serviceEvent!);
    expect((await submit({ ...form.fields, serviceEvent: JSON.stringify({ ...event, chat: bob.user.id }) })).status).toBe(403);
    expect((await submit({ ...form.fields, serviceEventToken: '' })).status).toBe(400);
    expect((await submit({ ...form.fields, answers: 'Pizza' })).status).toBe(400);

    expect((await submit({ ...form.fields, answers: 'Pizza\nSushi' })).status).toBe(200);
    expect((await submit({ ...form.fields, answers: 'Pizza\nSushi' })).status).toBe(409);
    const [poll, ...earlier] = (await bob.call('chat.fetchMessages', { chat: channel.id })).body;
    expect(earlier).toEqual([]);
    expect(poll).toMatchObject({ from: bot.botUserId, text: 'Poll: Lunch? Pizza 0 · Sushi 0', attachments: [{ id: 'poll-1', title: 'Lunch?', buttons: [{ id: 'vote-0', name: 'Pizza' }, { id: 'vote-1', name: 'Sushi' }] }] });

    const vote = (who: typeof alice, buttonId: string) =>
      who.call('interactions.pressButton', { button: 'attachmentButton', messageUid: poll.uid, attachmentId: 'poll-1', buttonId });
    expect(poll.editedAt).toBeUndefined();
    const history = async () => (await alice.call('chat.fetchMessages', { chat: channel.id })).body;
    const tallies: string[] = [];
    for (const [who, buttonId, toast] of [[bob, 'vote-1', 'Voted Sushi'], [alice, 'vote-0', 'Voted Pizza'], [alice, 'vote-1', 'Voted Sushi']] as const) {
      expect((await vote(who, buttonId)).body).toEqual({ kind: 'toast', text: toast });
      // The vote is answered once the edit is stored: still the one message, its text the new tally.
      const [only, ...more] = await history();
      expect(more).toEqual([]);
      expect(only).toMatchObject({ uid: poll.uid, editedAt: expect.any(Number), attachments: poll.attachments });
      tallies.push(only.text);
    }
    expect(tallies).toEqual(['Poll: Lunch? Pizza 0 · Sushi 1', 'Poll: Lunch? Pizza 1 · Sushi 1', 'Poll: Lunch? Pizza 0 · Sushi 2']);
  });

  it('poll: the compose widget refuses a page opened without Aviary’s parameters', async () => {
    const { app, bot, served } = await exampleCast(t(), {});
    served.serve(pollApp({ appId: app.id, appSecret: app.secret, botToken: bot.botToken, baseUrl: t().url }));
    const bare = await fetch(`${served.origin}/widget`);
    expect(bare.status).toBe(400);
    expect(await bare.text()).toMatch(/must be opened from Aviary: the widget URL has no serviceEvent parameter/);
  });
});

/** The compose page's form, as a browser would submit it: its action and every named field's value. */
function composeForm(html: string): { action: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  let action = '';
  let textarea: string | undefined;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === 'form') action = attributes.action ?? '';
      if (name === 'input' && attributes.name) fields[attributes.name] = attributes.value ?? '';
      if (name === 'textarea' && attributes.name) fields[(textarea = attributes.name)] = '';
    },
    ontext(text) {
      // htmlparser2 leaves a textarea's text (RCDATA) encoded; a browser decodes it, and the page writes numeric references.
      if (textarea) fields[textarea] += text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
    },
    onclosetag(name) {
      if (name === 'textarea') textarea = undefined;
    },
  }, { decodeEntities: true });
  parser.end(html);
  expect(html).not.toMatch(/<b>Sushi/);
  return { action, fields };
}
