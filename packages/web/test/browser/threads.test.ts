import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { deleteMessage } from '../../../server/src/core/commands/deleteMessage.js';
import { sendMessage } from '../../../server/src/core/commands/sendMessage.js';
import { changeFollow } from '../../../server/src/core/threads/follows.js';
import { newMessageUid } from '../../../server/src/store/ids.js';
import type { UsersTable } from '../../../server/src/store/schema.js';
import { sessionFor } from '../../../server/test/client/harness.js';
import { png, upload } from '../../../server/test/files/upload.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { signInPage, webCast, writeHistory } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * Threads in the web client (issue 23), two people at once: Alice at 1280 px replies to Bob's message in a
 * thread from its hover tools (the side panel); Bob, on a phone (390 px), sees "1 reply" appear live under
 * his message, opens the thread (the whole view), answers with "Also send to the channel", and Alice sees
 * that reply in the panel and in the channel. Alice's "Threads" view lists the thread, and opens it. In light and dark.
 * Then a long thread at 1280×800: the panel a column beside the conversation (whose composer it leaves
 * clear; at 900 px it takes the conversation's place), in the address (reload, back and forward keep
 * it), its older replies a page at a time.
 */
const web = webSuite();

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });
const messageWith = (page: Page, text: string) => history(page).getByRole('article').filter({ hasText: text });
/** Waits until the thread panel shows this reply exactly once. */
const replyShown = (panel: ReturnType<Page['getByRole']>, text: string) => expect.poll(() => panel.getByRole('listitem').filter({ hasText: text }).count(), { timeout: 15_000 }).toBe(1);
const threadPanel = (page: Page) => page.getByRole('complementary', { name: 'Thread', exact: true });
const repliesShown = (page: Page) => threadPanel(page).getByRole('list', { name: 'Replies' }).getByRole('listitem');

/** A parent and `count` replies to it, a minute apart, with the thread's summary, straight into the store. */
async function writeThread(channel: { id: string; team_id: string }, from: UsersTable, parent: string, count: number): Promise<string> {
  const start = Date.now() - (count + 1) * 60_000;
  const root = newMessageUid(start);
  const replies = Array.from({ length: count }, (_, index) => ({ uid: newMessageUid(start + (index + 1) * 60_000), text: `Step ${index + 1} done`, thread_parent: root }));
  await writeHistory(web.t, channel, from, [{ uid: root, text: parent }], 60_000, start + 60_000);
  await writeHistory(web.t, channel, from, replies, 60_000, Date.now());
  await web.t.testStore.store.db
    .insertInto('threads')
    .values({ parent_uid: root, chat_key: channel.id, team_id: channel.team_id, reply_count: count, last_reply_uid: replies.at(-1)!.uid, last_reply_at: Date.now(), participants: JSON.stringify([from.id]) })
    .execute();
  return root;
}

describe.skipIf(noBrowser)('threads', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`replies in a thread, live for the other person, with "Also send to the channel" (${colorScheme})`, async () => {
      const name = `launch-${colorScheme}`;
      const question = `Which day do we launch, ${colorScheme}?`;
      const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name, purpose: 'Launch plans', members: [web.cast.bob.id] });
      const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind', { colorScheme });
      await alice.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
      await alice.page.getByRole('heading', { name, level: 1 }).waitFor();
      const bob = await signInPage(web.browser, web.t, web.cast.bob.email!, undefined, { colorScheme, width: 390, height: 800 });
      await bob.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
      await bob.page.getByRole('heading', { name, level: 1 }).waitFor();
      const composer = bob.page.getByRole('textbox', { name: /Message/ });
      await composer.fill(question);
      await composer.press('Enter');
      await messageWith(alice.page, question).waitFor();

      // Alice replies in a thread from the hover tools: the side panel.
      const asked = messageWith(alice.page, question);
      await asked.hover();
      await asked.getByRole('button', { name: /^Reply in a thread/ }).click();
      const alicePanel = alice.page.getByRole('complementary', { name: 'Thread', exact: true });
      await alicePanel.getByRole('textbox', { name: 'Reply in the thread' }).fill('Thursday, after the review');
      await alicePanel.getByRole('button', { name: 'Reply', exact: true }).click();
      await replyShown(alicePanel, 'Thursday, after the review');
      // The reply stays out of the channel; the count under the parent changes live for Bob.
      const summary = messageWith(bob.page, question).getByRole('button', { name: /^1 reply from Alice/ });
      await summary.waitFor();
      expect(await messageWith(bob.page, 'Thursday, after the review').count()).toBe(0);
      await summary.click();
      const bobPanel = bob.page.getByRole('complementary', { name: 'Thread', exact: true });
      await replyShown(bobPanel, 'Thursday, after the review');
      await bobPanel.getByRole('textbox', { name: 'Reply in the thread' }).fill('Thursday works for me');
      await bobPanel.getByRole('checkbox', { name: 'Also send to the channel' }).check();
      expect(await seriousAccessibilityViolations(bob.page)).toEqual([]);
      await saveScreenshot(bob.page, `thread-390-${colorScheme}`);
      await bobPanel.getByRole('button', { name: 'Reply', exact: true }).click();
      await replyShown(bobPanel, 'Thursday works for me');
      // The box is unticked again: the next reply is the thread's alone unless asked.
      expect(await bobPanel.getByRole('checkbox', { name: 'Also send to the channel' }).isChecked()).toBe(false);
      // Alice sees it in her panel and, also sent to the channel, in its history; the summary says 2 replies.
      await expect.poll(() => alicePanel.getByRole('list', { name: 'Replies' }).getByRole('listitem').count()).toBe(2);
      await replyShown(alicePanel, 'Thursday works for me');
      await messageWith(alice.page, 'Thursday works for me').getByRole('button', { name: 'Replied in a thread' }).waitFor();
      await messageWith(alice.page, question).getByRole('button', { name: /^2 replies/ }).waitFor();
      expect(await seriousAccessibilityViolations(alice.page)).toEqual([]);
      await alice.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await saveScreenshot(alice.page, `thread-${colorScheme}`);
      // A file in a reply: Bob attaches it in the panel, and it reaches Alice's panel as a card.
      const [chooser] = await Promise.all([bob.page.waitForEvent('filechooser'), bobPanel.getByRole('button', { name: 'Attach files to the reply' }).click()]);
      await chooser.setFiles({ name: `agenda-${colorScheme}.txt`, mimeType: 'text/plain', buffer: Buffer.from('1. launch day\n2. review\n') });
      const reply = bobPanel.getByRole('button', { name: 'Reply', exact: true });
      await expect.poll(() => reply.isEnabled()).toBe(true);
      await reply.click();
      await alicePanel.getByRole('list', { name: 'Replies' }).getByRole('link', { name: new RegExp(`^Download agenda-${colorScheme}\\.txt, `) }).waitFor();

      // Alice's Threads view lists the thread she follows.
      await alicePanel.getByRole('button', { name: 'Close' }).click();
      await alice.page.getByRole('button', { name: 'Threads', exact: true }).click();
      const threads = alice.page.getByRole('dialog', { name: /^Threads/ });
      await threads.getByRole('link', { name: new RegExp(`Which day do we launch, ${colorScheme}`) }).waitFor();
      expect(await seriousAccessibilityViolations(alice.page)).toEqual([]);
      await saveScreenshot(alice.page, `threads-view-${colorScheme}`);
      // An entry opens the chat at the parent with its thread beside it.
      await threads.getByRole('link', { name: new RegExp(`Which day do we launch, ${colorScheme}`) }).click();
      await replyShown(alicePanel, 'Thursday works for me');
      const opened = new URL(alice.page.url()).searchParams;
      expect(opened.get('thread')).toMatch(/\w/);
      expect(opened.get('thread')).toBe(opened.get('m'));

      alice.expectNoErrors();
      bob.expectNoErrors();
      await Promise.all([alice.context.close(), bob.context.close()]);
    });
  }

  it('edits, deletes and reacts to a reply in the thread panel, each seen live in the other person’s open thread', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'replies-change', members: [web.cast.bob.id] });
    const { message: parent } = await sendMessage(web.t.server.ctx, { user: web.cast.bob, appId: null }, { to: channel.id, text: 'Who reviews the copy?' });
    await sendMessage(web.t.server.ctx, { user: web.cast.alice, appId: null }, { to: channel.id, text: 'I can, on Tuesday', threadParent: parent.uid });
    await sendMessage(web.t.server.ctx, { user: web.cast.alice, appId: null }, { to: channel.id, text: 'Sorry, wrong thread', threadParent: parent.uid });
    const path = `${web.t.url}/c/${encodeURIComponent(channel.id)}?thread=${parent.uid}`;
    const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind');
    await alice.page.goto(path);
    const bob = await signInPage(web.browser, web.t, web.cast.bob.email!);
    await bob.page.goto(path);
    const replyIn = (page: Page, text: string) => repliesShown(page).filter({ hasText: text }).getByRole('article');
    await replyIn(bob.page, 'Sorry, wrong thread').waitFor();

    // Alice edits her reply from its "…" menu; Bob's panel shows the new text, marked edited.
    const tuesday = replyIn(alice.page, 'I can, on Tuesday');
    await tuesday.hover();
    await tuesday.getByRole('button', { name: /^More actions/ }).click();
    await alice.page.getByRole('menuitem', { name: 'Edit' }).click();
    const editor = threadPanel(alice.page).getByRole('textbox', { name: 'Edit message' });
    await editor.fill('I can, on Wednesday');
    await editor.press('Enter');
    await replyIn(bob.page, 'I can, on Wednesday').getByText('(edited)').waitFor();
    // She deletes the other, confirmed: gone from Bob's panel too.
    const wrong = replyIn(alice.page, 'Sorry, wrong thread');
    await wrong.hover();
    await wrong.getByRole('button', { name: /^More actions/ }).click();
    await alice.page.getByRole('menuitem', { name: 'Delete' }).click();
    await alice.page.getByRole('dialog', { name: 'Delete message?' }).getByRole('button', { name: 'Delete' }).click();
    await replyIn(bob.page, 'Sorry, wrong thread').waitFor({ state: 'detached' });
    // Bob reacts to the reply (Bob's own reply tools offer no Edit on hers); Alice sees his reaction live.
    const seen = replyIn(bob.page, 'I can, on Wednesday');
    await seen.hover();
    await seen.getByRole('button', { name: /^More actions/ }).click();
    expect(await bob.page.getByRole('menu', { name: 'Message actions' }).getByRole('menuitem').allTextContents()).not.toContain('Edit');
    await bob.page.keyboard.press('Escape');
    await seen.getByRole('button', { name: /^Add a reaction to/ }).click();
    const picker = bob.page.getByRole('dialog', { name: 'Add a reaction' });
    await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('thumbs up');
    await picker.getByRole('region', { name: 'Search results' }).getByRole('button', { name: 'thumbs up', exact: true }).click();
    await replyIn(alice.page, 'I can, on Wednesday').getByRole('button', { name: /^👍 1: Bob Baker/ }).waitFor();
    // Bob deletes the parent: it stays, emptied, for its reply, and offers nothing but its link.
    await deleteMessage(web.t.server.ctx, { user: web.cast.bob, appId: null, kind: 'person' }, { messageUid: parent.uid });
    const emptied = messageWith(alice.page, 'This message was deleted');
    await emptied.waitFor();
    await emptied.hover();
    expect(await emptied.getByRole('button', { name: /^Add a reaction to/ }).count()).toBe(0);
    await emptied.getByRole('button', { name: /^More actions/ }).click();
    expect(await alice.page.getByRole('menu', { name: 'Message actions' }).getByRole('menuitem').allTextContents()).toEqual(['Copy link']);
    alice.expectNoErrors();
    bob.expectNoErrors();
    await Promise.all([alice.context.close(), bob.context.close()]);
  });

  it('names people with @ and writes emoji with : in the reply box, and the reply mentions whom it names', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'replies-mention', members: [web.cast.bob.id] });
    const { message: parent } = await sendMessage(web.t.server.ctx, { user: web.cast.alice, appId: null }, { to: channel.id, text: 'The release notes are drafted' });
    const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind');
    await alice.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}?thread=${parent.uid}`);
    const box = threadPanel(alice.page).getByRole('textbox', { name: 'Reply in the thread' });
    await box.pressSequentially('@Bo');
    const people = threadPanel(alice.page).getByRole('listbox', { name: 'People' });
    await people.getByRole('option', { name: /^Bob Baker/ }).waitFor();
    expect(await box.getAttribute('aria-controls')).toBe(await people.getAttribute('id'));
    await box.press('Enter');
    await box.pressSequentially('please check them :tad');
    await threadPanel(alice.page).getByRole('listbox', { name: 'Emoji' }).getByRole('option', { name: /:tada:/ }).waitFor();
    await box.press('Enter');
    expect(await box.inputValue()).toBe('@Bob Baker please check them 🎉 ');
    // The reply box's 🙂 button puts an emoji at the caret too.
    await threadPanel(alice.page).getByRole('button', { name: 'Insert an emoji' }).click();
    await alice.page.getByRole('dialog', { name: 'Insert an emoji' }).getByRole('searchbox', { name: 'Search emoji' }).fill('thumbs up');
    await alice.page.getByRole('dialog', { name: 'Insert an emoji' }).getByRole('searchbox', { name: 'Search emoji' }).press('Enter');
    expect(await box.inputValue()).toBe('@Bob Baker please check them 🎉 👍');
    await box.press('Enter');
    await repliesShown(alice.page).filter({ hasText: 'please check them 🎉 👍' }).waitFor();
    expect(await box.inputValue()).toBe('');

    const [reply] = await web.t.testStore.store.db.selectFrom('messages').select(['text', 'mentions']).where('thread_parent', '=', parent.uid).execute();
    expect(reply).toEqual({ text: '@Bob Baker please check them 🎉 👍', mentions: JSON.stringify([web.cast.bob.id]) });
    // Named, Bob follows the thread now.
    const follow = await web.t.testStore.store.db.selectFrom('thread_follows').select('following').where('parent_uid', '=', parent.uid).where('user_id', '=', web.cast.bob.id).executeTakeFirst();
    expect(follow).toEqual({ following: 1 });
    expect(await seriousAccessibilityViolations(alice.page)).toEqual([]);
    alice.expectNoErrors();
    await alice.context.close();
  });

  it('keeps the pages of followed threads shown when a reply comes, with the thread replied to first, and drops one unfollowed elsewhere', async () => {
    // People of its own: the threads they follow are this test's alone.
    const cast = await webCast(web.t);
    const { channel } = await createChannel(web.t.server.ctx, { user: cast.alice, appId: null }, { name: 'many-threads', members: [cast.bob.id] });
    const ctx = web.t.server.ctx;
    const roots = await writeHistory(web.t, { id: channel.id, team_id: cast.team.id }, cast.bob, Array.from({ length: 35 }, (_, i) => ({ text: `Topic ${i + 1}` })));
    // Alice answers each in its thread, and so follows all 35.
    for (const root of roots) await sendMessage(ctx, { user: cast.alice, appId: null }, { to: channel.id, text: `On ${root.text}`, threadParent: root.uid });
    const alice = await signInPage(web.browser, web.t, cast.alice.email!, 'Northwind');
    const { page } = alice;
    await page.getByRole('button', { name: 'Threads', exact: true }).click();
    const list = page.getByRole('dialog', { name: /^Threads/ }).getByRole('list', { name: 'Followed threads' }).getByRole('listitem');
    await expect.poll(() => list.count()).toBe(30);
    await page.getByRole('dialog', { name: /^Threads/ }).getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => list.count()).toBe(35);

    // Bob answers in the thread of Topic 1, the last of the list: it comes first, and the list stays whole.
    await sendMessage(ctx, { user: cast.bob, appId: null }, { to: channel.id, text: 'Still on it', threadParent: roots[0]!.uid });
    await expect.poll(() => list.first().innerText(), { timeout: 15_000 }).toContain('Topic 1');
    expect(await list.count()).toBe(35);
    expect(new Set(await list.allInnerTexts()).size).toBe(35);

    // She unfollows Topic 3 on another device: it is on the second page, and leaves the list at once.
    await changeFollow(ctx, cast.alice, { messageUid: roots[2]!.uid, following: false });
    await expect.poll(() => list.count(), { timeout: 15_000 }).toBe(34);
    expect((await list.allInnerTexts()).filter((text) => /\bTopic 3\b/.test(text))).toEqual([]);
    alice.expectNoErrors();
    await alice.context.close();
  });

  it('keeps the thread open on an Escape that is not its own: the image viewer’s, or one in a reply being written', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'escapes', members: [web.cast.bob.id] });
    const ctx = web.t.server.ctx;
    const { message: root } = await sendMessage(ctx, { user: web.cast.bob, appId: null }, { to: channel.id, text: 'The new chart' });
    const bob = await sessionFor(web.t, web.cast.bob);
    const stored = await upload(web.t, bob.sessionToken, 'chart.png', await png(120, 80));
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    await sendMessage(ctx, { user: web.cast.bob, appId: null }, { to: channel.id, text: 'Here it is', threadParent: root.uid, files: [stored.body.file.id] });
    const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind', { width: 1280, height: 800 });
    const { page } = alice;
    await page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}?thread=${root.uid}`);
    const panel = threadPanel(page);
    await replyShown(panel, 'Here it is');

    // The viewer, opened from the thread, closes on Escape; the thread stays.
    await panel.getByRole('link', { name: 'View chart.png' }).click();
    const viewer = page.getByRole('dialog', { name: 'chart.png' });
    await viewer.waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(await panel.isVisible()).toBe(true);

    // Escape in a reply being written keeps the reply and the thread; with nothing written, it closes the thread.
    const reply = panel.getByRole('textbox', { name: 'Reply in the thread' });
    await reply.fill('Looks right to me, but');
    await reply.press('Escape');
    expect(await panel.isVisible()).toBe(true);
    expect(await reply.inputValue()).toBe('Looks right to me, but');
    await reply.fill('');
    await reply.press('Escape');
    await panel.waitFor({ state: 'detached' });
    alice.expectNoErrors();
    await alice.context.close();
  });

  it('opens a thread beside the conversation, keeps it in the address, and loads its older replies (1280×800)', async () => {
    const name = 'release-steps';
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name, purpose: 'The release, step by step', members: [web.cast.bob.id] });
    // 130 replies: the panel opens with the newest 100 and one page older to load.
    const root = await writeThread({ id: channel.id, team_id: web.cast.team.id }, web.cast.bob, 'Release checklist, step by step', 130);
    const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind', { width: 1280, height: 800 });
    const { page } = alice;
    await page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
    await messageWith(page, 'Release checklist').getByRole('button', { name: /^130 replies/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('thread')).toBe(root);
    await expect.poll(() => repliesShown(page).count(), { timeout: 15_000 }).toBe(100);
    expect(await repliesShown(page).filter({ hasText: 'Step 31 done' }).count()).toBe(1);
    expect(await repliesShown(page).filter({ hasText: 'Step 30 done' }).count()).toBe(0);

    // The panel is a column of its own: the channel's composer is beside it, whole, and takes what is typed.
    const composer = page.getByRole('textbox', { name: `Message #${name}` });
    const [composerBox, panelBox] = [await composer.boundingBox(), await threadPanel(page).boundingBox()];
    expect(composerBox!.x + composerBox!.width).toBeLessThanOrEqual(panelBox!.x + 1);
    expect(await composer.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return document.elementFromPoint(box.right - 4, box.bottom - 4) === element;
    })).toBe(true);
    await composer.click();
    await composer.fill('Posting while the thread is open');
    await composer.press('Enter');
    await messageWith(page, 'Posting while the thread is open').waitFor();
    await page.locator('.notification-prompt').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await saveScreenshot(page, 'thread-beside-1280');
    // Narrower than the two side by side: the thread takes the conversation's place, as on a phone.
    await page.setViewportSize({ width: 900, height: 800 });
    await expect.poll(() => composer.isVisible()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 800 });
    await composer.waitFor();

    // A reload opens the same thread again.
    await page.reload();
    await repliesShown(page).filter({ hasText: 'Step 130 done' }).waitFor();
    expect(new URL(page.url()).searchParams.get('thread')).toBe(root);

    // Older replies, a page at a time: the last page takes the button away and the focus goes to the first reply.
    await threadPanel(page).getByRole('button', { name: 'Load older replies' }).click();
    await expect.poll(() => repliesShown(page).count(), { timeout: 15_000 }).toBe(130);
    await threadPanel(page).getByRole('button', { name: 'Load older replies' }).waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement !== null && document.activeElement === document.querySelector('.thread-replies article'))).toBe(true);
    expect(await repliesShown(page).first().textContent()).toMatch(/Step 1 done/);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await saveScreenshot(page, 'thread-older-replies-1280');

    // Back closes the thread (the conversation stays), forward opens it again, Close leaves the address without it.
    await page.goBack();
    await threadPanel(page).waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('thread')).toBeNull();
    await messageWith(page, 'Posting while the thread is open').waitFor();
    await page.goForward();
    await repliesShown(page).filter({ hasText: 'Step 130 done' }).waitFor();
    await threadPanel(page).getByRole('button', { name: 'Close' }).click();
    await threadPanel(page).waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('thread')).toBeNull();
    alice.expectNoErrors();
    await alice.context.close();
  });
});
