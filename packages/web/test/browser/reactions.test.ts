import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { sendMessage } from '../../../server/src/core/commands/sendMessage.js';
import { updateMessage } from '../../../server/src/core/commands/updateMessage.js';
import { PASSWORD, scrollHistory, settledAtBottom, signInPage, writeHistory } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * Editing, deleting and reacting in the web client (issue 23), two people at once: Alice at 1280 px edits
 * (Up in the empty composer) and deletes (the "…" menu, confirmed); Bob, on a phone (390 px), sees both
 * live and reacts through the emoji picker, which is fetched only when first opened; Alice sees his
 * reaction live and adds hers. In light and in dark.
 */
const web = webSuite();

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });
const messageWith = (page: Page, text: string) => history(page).getByRole('article').filter({ hasText: text });

describe.skipIf(noBrowser)('editing, deleting and reacting', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`edits, deletes and reacts, each seen live by the other person (${colorScheme})`, async () => {
      const name = `lunch-${colorScheme}`;
      const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name, purpose: 'Where to eat', members: [web.cast.bob.id] });
      await writeHistory(web.t, { id: channel.id, team_id: web.cast.team.id }, web.cast.bob, [{ text: 'Hungry yet?' }]);

      const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind', { colorScheme });
      await alice.page.getByRole('link', { name }).click();
      await alice.page.getByRole('heading', { name, level: 1 }).waitFor();
      // On a phone, opened by its link.
      const bob = await signInPage(web.browser, web.t, web.cast.bob.email!, undefined, { colorScheme, width: 390, height: 800 });
      await bob.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
      await bob.page.getByRole('heading', { name, level: 1 }).waitFor();
      const scripts: string[] = [];
      bob.page.on('request', (request) => void (request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname)));

      const composer = alice.page.getByRole('textbox', { name: `Message #${name}` });
      for (const text of ['Lunch at noon?', 'Wrong channel, sorry', 'Meet at the caffe']) {
        await composer.fill(text);
        await composer.press('Enter');
        await messageWith(bob.page, text).waitFor();
      }

      // Up in the empty composer edits Alice's last message; Bob sees the new text, marked edited.
      await composer.press('ArrowUp');
      const editor = alice.page.getByRole('textbox', { name: 'Edit message' });
      expect(await editor.inputValue()).toBe('Meet at the caffe');
      await editor.fill('Meet at the café');
      await editor.press('Enter');
      await messageWith(bob.page, 'Meet at the café').getByText('(edited)').waitFor();
      // The composer has the focus again, ready for the next message.
      await expect.poll(() => composer.evaluate((element) => element === document.activeElement)).toBe(true);

      // The "…" menu's Delete, confirmed: gone for Bob too.
      const wrong = messageWith(alice.page, 'Wrong channel, sorry');
      await wrong.hover();
      await wrong.getByRole('button', { name: /^More actions/ }).click();
      await alice.page.getByRole('menuitem', { name: 'Delete' }).click();
      const confirm = alice.page.getByRole('dialog', { name: 'Delete message?' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await messageWith(bob.page, 'Wrong channel, sorry').waitFor({ state: 'detached' });
      await wrong.waitFor({ state: 'detached' });

      // Bob reacts through the picker, searched; it was not part of the page until he opened it.
      expect(scripts.some((path) => path.includes('EmojiGrid'))).toBe(false);
      const lunch = messageWith(bob.page, 'Lunch at noon?');
      await lunch.getByRole('button', { name: 'Add a reaction to “Lunch at noon?”' }).click();
      const picker = bob.page.getByRole('dialog', { name: 'Add a reaction' });
      await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('thumbs up');
      await picker.getByRole('region', { name: 'Search results' }).getByRole('button', { name: 'thumbs up', exact: true }).waitFor();
      expect(scripts.some((path) => path.includes('EmojiGrid'))).toBe(true);
      expect(await seriousAccessibilityViolations(bob.page)).toEqual([]);
      await saveScreenshot(bob.page, `emoji-picker-390-${colorScheme}`);
      await picker.getByRole('button', { name: 'thumbs up', exact: true }).click();
      await lunch.getByRole('button', { name: /^👍 1: you$/, pressed: true }).waitFor();

      // Alice sees it live, with who reacted; her click adds hers, and Bob sees both.
      const pill = messageWith(alice.page, 'Lunch at noon?').getByRole('button', { name: /^👍 1: Bob Baker$/, pressed: false });
      await pill.click();
      await messageWith(alice.page, 'Lunch at noon?').getByRole('button', { name: /^👍 2: you and Bob Baker$/, pressed: true }).waitFor();
      await lunch.getByRole('button', { name: /^👍 2: you and Alice Archer$/, pressed: true }).waitFor();

      // The picker remembers what Bob used.
      await lunch.getByRole('button', { name: 'Add a reaction', exact: true }).click();
      await picker.getByRole('region', { name: 'Recently used' }).getByRole('button').first().waitFor();
      expect(await picker.getByRole('region', { name: 'Recently used' }).getByRole('button').first().textContent()).toBe('👍');
      // Down from the search box reaches the emoji: the first of those used lately.
      await picker.getByRole('searchbox', { name: 'Search emoji' }).press('ArrowDown');
      expect(await bob.page.evaluate(() => document.activeElement?.textContent)).toBe('👍');
      await bob.page.keyboard.press('Escape');
      await picker.waitFor({ state: 'detached' });

      await settledAtBottom(alice.page);
      await messageWith(alice.page, 'Meet at the café').hover();
      expect(await seriousAccessibilityViolations(alice.page)).toEqual([]);
      await saveScreenshot(alice.page, `reactions-${colorScheme}`);
      await settledAtBottom(bob.page);
      await saveScreenshot(bob.page, `reactions-390-${colorScheme}`);
      alice.expectNoErrors();
      bob.expectNoErrors();
      await alice.context.close();
      await bob.context.close();
    });
  }

  it('on a touch screen, a tap on a message shows its tools without pressing the one under the finger', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'taps', members: [web.cast.bob.id] });
    await writeHistory(web.t, { id: channel.id, team_id: web.cast.team.id }, web.cast.alice, [{ text: 'Tap me' }]);
    const bob = await signInPage(web.browser, web.t, web.cast.bob.email!, undefined, { width: 390, height: 844, touch: true });
    await bob.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
    const message = messageWith(bob.page, 'Tap me');
    const react = message.getByRole('button', { name: /^Add a reaction to/ });
    await react.waitFor({ state: 'attached' });
    expect(await bob.page.evaluate(() => matchMedia('(hover: none)').matches)).toBe(true);
    // The finger lands where the hidden "Add a reaction" is: the message takes the tap, and shows its tools.
    const box = (await react.boundingBox())!;
    await bob.page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => react.evaluate((element) => getComputedStyle(element.closest('.message-actions')!).opacity)).toBe('1');
    expect(await bob.page.getByRole('dialog', { name: 'Add a reaction' }).count()).toBe(0);
    // Now shown, the same tap presses it.
    await bob.page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    await bob.page.getByRole('dialog', { name: 'Add a reaction' }).waitFor();
    await bob.page.getByRole('dialog', { name: 'Add a reaction' }).getByRole('button', { name: 'Close' }).tap();
    // An action from the "…" menu: the menu goes, and a tap on the composer closes the tools too.
    const toolsShown = () => message.evaluate((element) => element.classList.contains('tools-open'));
    await message.tap();
    await message.getByRole('button', { name: /^More actions for/ }).tap();
    await message.getByRole('menuitem', { name: 'Save' }).tap();
    await bob.page.getByRole('textbox', { name: /^Message #taps/ }).tap();
    await expect.poll(toolsShown).toBe(false);
    bob.expectNoErrors();
    await bob.context.close();
  });

  it('keeps an edit being typed when its message scrolls out of view and back', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'long-edit', members: [web.cast.bob.id] });
    const chat = { id: channel.id, team_id: web.cast.team.id };
    await writeHistory(web.t, chat, web.cast.bob, Array.from({ length: 90 }, (_, i) => ({ text: `Earlier line ${i + 1}` })), 60_000, Date.now() - 60_000);
    const [own] = await writeHistory(web.t, chat, web.cast.alice, [{ text: 'Ship it on Thursday' }]);
    // Read to the end: the chat opens at its newest message.
    await web.t.testStore.store.db.insertInto('chat_reads').values({ user_id: web.cast.alice.id, chat_key: channel.id, read_uid: own!.uid, updated_at: Date.now() }).execute();
    const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind');
    await alice.page.getByRole('link', { name: 'long-edit' }).click();
    await messageWith(alice.page, 'Ship it on Thursday').waitFor();
    await settledAtBottom(alice.page);

    await alice.page.getByRole('textbox', { name: /Message #long-edit/ }).press('ArrowUp');
    const editor = alice.page.getByRole('textbox', { name: 'Edit message' });
    await editor.fill('Ship it on Friday, after the review');
    // Up to the top, where the row is no longer drawn, and down again.
    await scrollHistory(alice.page, 'top');
    await editor.waitFor({ state: 'detached' });
    await scrollHistory(alice.page, 'end');
    await editor.waitFor();
    expect(await editor.inputValue()).toBe('Ship it on Friday, after the review');
    await editor.press('Enter');
    await messageWith(alice.page, 'Ship it on Friday, after the review').getByText('(edited)').waitFor();
    alice.expectNoErrors();
    await alice.context.close();
  });

  it('shows a message that names someone as Markdown with the person marked, and an edit keeps them named and names another', async () => {
    const carol = await web.t.f.person(web.cast.team.id, { firstName: 'Carol', lastName: 'Cole' });
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'named-edit', members: [web.cast.bob.id, carol.id] });
    const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind');
    await alice.page.getByRole('link', { name: 'named-edit' }).click();
    const composer = alice.page.getByRole('textbox', { name: /Message #named-edit/ });
    await composer.pressSequentially('@Bo');
    await alice.page.getByRole('listbox', { name: 'People' }).getByRole('option', { name: /^Bob Baker/ }).waitFor();
    await composer.press('Enter');
    await composer.pressSequentially('please run `npm test` **first**');
    await composer.press('Enter');
    const message = messageWith(alice.page, 'please run');
    await message.locator('.markdown code', { hasText: 'npm test' }).waitFor();
    expect(await message.locator('.markdown strong').textContent()).toBe('first');
    expect(await message.locator('.sml-mention').allTextContents()).toEqual(['@Bob Baker']);

    // Edited: Bob stays named, and Alice names Carol with `@` in the editor.
    await composer.press('ArrowUp');
    const editor = alice.page.getByRole('textbox', { name: 'Edit message' });
    expect(await editor.inputValue()).toBe('@Bob Baker please run `npm test` **first**');
    await editor.press('End');
    await editor.pressSequentially(', then tell @Car');
    await alice.page.getByRole('listbox', { name: 'People' }).getByRole('option', { name: /^Carol Cole/ }).waitFor();
    await editor.press('Enter');
    expect(await editor.inputValue()).toBe('@Bob Baker please run `npm test` **first**, then tell @Carol Cole ');
    await editor.press('Enter');
    await message.getByText('(edited)').waitFor();
    expect(await message.locator('.sml-mention').allTextContents()).toEqual(['@Bob Baker', '@Carol Cole']);
    expect(await message.locator('.markdown code').textContent()).toBe('npm test');
    const [stored] = await web.t.testStore.store.db.selectFrom('messages').select(['text', 'serviceml']).where('chat_key', '=', channel.id).execute();
    expect(stored!.serviceml).toContain(`<user userId="${web.cast.bob.id}">@Bob Baker</user>`);
    expect(stored!.serviceml).toContain(`<user userId="${carol.id}">@Carol Cole</user>`);
    expect(stored!.text).toBe('@Bob Baker please run `npm test` **first**, then tell @Carol Cole');
    alice.expectNoErrors();
    await alice.context.close();
  });

  it('shows a team admin what an edited message said before each edit; to a member, “(edited)” is only a mark', async () => {
    const admin = await web.t.f.person(web.cast.team.id, { firstName: 'Ada', lastName: 'Admin', password: PASSWORD, role: 'admin' });
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'edited-twice', members: [web.cast.bob.id, admin.id] });
    const bob = { user: web.cast.bob, appId: null, kind: 'person' as const };
    const { message } = await sendMessage(web.t.server.ctx, bob, { to: channel.id, text: 'The budget is 10k' });
    await updateMessage(web.t.server.ctx, bob, { messageUid: message.uid, text: 'The budget is 12k' });
    await updateMessage(web.t.server.ctx, bob, { messageUid: message.uid, text: 'The budget is <b>15k</b>' });

    const ada = await signInPage(web.browser, web.t, admin.email!);
    await ada.page.getByRole('link', { name: 'edited-twice' }).click();
    await messageWith(ada.page, 'The budget is <b>15k</b>').getByRole('button', { name: '(edited)' }).click();
    const dialog = ada.page.getByRole('dialog', { name: 'Edit history' });
    const versions = dialog.getByRole('listitem');
    await versions.nth(2).waitFor();
    expect(await versions.locator('.edit-text').allTextContents()).toEqual(['The budget is <b>15k</b>', 'The budget is 12k', 'The budget is 10k']);
    expect(await versions.nth(1).locator('.edit-when').textContent()).toMatch(/^Before Bob Baker’s edit of /);
    expect(await dialog.locator('b').count()).toBe(0);
    expect(await seriousAccessibilityViolations(ada.page)).toEqual([]);
    await saveScreenshot(ada.page, 'edit-history-light');
    await ada.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    ada.expectNoErrors();
    await ada.context.close();

    // Alice, a member, sees the mark and no button.
    const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind');
    await alice.page.getByRole('link', { name: 'edited-twice' }).click();
    const shown = messageWith(alice.page, 'The budget is <b>15k</b>');
    await shown.getByText('(edited)').waitFor();
    expect(await shown.getByRole('button', { name: '(edited)' }).count()).toBe(0);
    alice.expectNoErrors();
    await alice.context.close();
  });
});
