import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { momentOf } from '../../src/app/schedule/scheduleTimes.js';
import { signInPage } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * Scheduling a message in the web client (chat.scheduleMessage): the composer's 🕘 opens "Schedule
 * message", the bar above the composer counts what is scheduled and lists it, each to cancel; a message
 * sent on time leaves the list and shows in the history, naming whom it named.
 */
const web = webSuite();

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });

describe.skipIf(noBrowser)('scheduling a message for later', () => {
  it('schedules at a day and time or a quick choice, lists and cancels them, and sends one on time', async () => {
    await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'later', members: [web.cast.bob.id] });
    const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind');
    await alice.page.getByRole('link', { name: 'later' }).click();
    const box = alice.page.getByRole('textbox', { name: /Message #later/ });
    const clock = alice.page.getByRole('button', { name: 'Schedule for later' });
    expect(await clock.isDisabled()).toBe(true);
    await box.pressSequentially('@Bo');
    await alice.page.getByRole('listbox', { name: 'People' }).getByRole('option', { name: /^Bob Baker/ }).waitFor();
    await box.press('Enter');
    await box.pressSequentially('the deploy window opens');
    await clock.click();
    const dialog = alice.page.getByRole('dialog', { name: 'Schedule message' });
    await dialog.getByText('@Bob Baker the deploy window opens').waitFor();
    expect(await seriousAccessibilityViolations(alice.page)).toEqual([]);
    await saveScreenshot(alice.page, 'schedule-message-light');

    // Enter in the day field schedules at the day and time shown (tomorrow at 9:00): nothing is sent now.
    const [day, time] = [await dialog.getByLabel('Day').inputValue(), await dialog.getByLabel('Time').inputValue()];
    expect(time).toBe('09:00');
    await dialog.getByLabel('Day').press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await alice.page.getByRole('button', { name: '1 scheduled message' }).waitFor();
    expect(await box.inputValue()).toBe('');
    const zone = (await web.t.testStore.store.db.selectFrom('users').select('timezone').where('id', '=', web.cast.alice.id).executeTakeFirstOrThrow()).timezone;
    const rows = async () =>
      (await web.t.testStore.store.db.selectFrom('scheduled_messages').selectAll().where('status', '=', 'pending').orderBy('send_at').execute()).map((row) => ({ ...row, params: JSON.parse(row.params) }));
    const [first] = await rows();
    expect(first!.send_at).toBe(momentOf({ date: day, time }, zone));
    expect(first!.params).toMatchObject({ text: '@Bob Baker the deploy window opens', mentions: [web.cast.bob.id], serviceml: expect.stringContaining(`<user userId="${web.cast.bob.id}">`) });
    expect(await history(alice.page).getByText('the deploy window opens').count()).toBe(0);

    // A quick choice: in an hour.
    await box.fill('Second thoughts');
    await clock.click();
    await dialog.getByRole('button', { name: /^In 1 hour/ }).click();
    await alice.page.getByRole('button', { name: '2 scheduled messages' }).click();
    const list = alice.page.getByRole('dialog', { name: 'Scheduled messages' });
    await list.getByText('Second thoughts').waitFor();
    await list.getByRole('button', { name: 'Cancel “Second thoughts”' }).click();
    await list.getByText('Second thoughts').waitFor({ state: 'detached' });
    expect((await rows()).map((row) => row.params.text)).toEqual(['@Bob Baker the deploy window opens']);
    await list.getByRole('button', { name: 'Close' }).click();

    // Its time comes: sent, it leaves the list and shows, naming Bob.
    await web.t.testStore.store.db.updateTable('scheduled_messages').set({ send_at: Date.now() - 1000 }).where('id', '=', first!.id).execute();
    await web.t.server.scheduled.runOnce();
    await history(alice.page).locator('.sml-mention', { hasText: 'Bob Baker' }).waitFor();
    await alice.page.getByRole('button', { name: /scheduled message/ }).waitFor({ state: 'detached' });
    alice.expectNoErrors();
    await alice.context.close();
  });

  it('schedules a file with its caption: the list shows it, and it goes with the message', async () => {
    await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'reports', members: [web.cast.bob.id] });
    const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind');
    await alice.page.getByRole('link', { name: 'reports' }).click();
    const [chooser] = await Promise.all([alice.page.waitForEvent('filechooser'), alice.page.getByRole('button', { name: 'Attach files' }).click()]);
    await chooser.setFiles([{ name: 'weekly.txt', mimeType: 'text/plain', buffer: Buffer.from('the weekly report') }]);
    await alice.page.locator('.upload-row.done', { hasText: 'weekly.txt' }).waitFor();
    await alice.page.getByRole('textbox', { name: /Message #reports/ }).fill('The weekly report');
    await alice.page.getByRole('button', { name: 'Schedule for later' }).click();
    await alice.page.getByRole('dialog', { name: 'Schedule message' }).getByRole('button', { name: /^In 1 hour/ }).click();
    await alice.page.getByRole('button', { name: '1 scheduled message' }).click();
    const list = alice.page.getByRole('dialog', { name: 'Scheduled messages' });
    await list.getByText('The weekly report').waitFor();
    await list.getByText('📎 1 file').waitFor();
    await list.getByRole('button', { name: 'Close' }).click();
    // The composer is empty again: the file went with the scheduled message.
    expect(await alice.page.getByRole('list', { name: 'Files to send' }).count()).toBe(0);

    const db = web.t.testStore.store.db;
    const row = await db.selectFrom('scheduled_messages').select(['id', 'params']).where('status', '=', 'pending').executeTakeFirstOrThrow();
    const [fileId] = (JSON.parse(row.params) as { files: string[] }).files;
    expect(await db.selectFrom('scheduled_files').select('file_id').where('scheduled_id', '=', row.id).execute()).toEqual([{ file_id: fileId }]);
    await db.updateTable('scheduled_messages').set({ send_at: Date.now() - 1000 }).where('id', '=', row.id).execute();
    await web.t.server.scheduled.runOnce();
    await history(alice.page).getByRole('article').filter({ hasText: 'The weekly report' }).getByRole('link', { name: /Download weekly.txt/ }).waitFor();
    alice.expectNoErrors();
    await alice.context.close();
  });
});
