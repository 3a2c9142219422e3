import { describe, expect, it } from 'vitest';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { PASSWORD, signInToSidebar } from './cast.js';
import { browserSuite, saveScreenshot } from './suite.js';

/** A person sets a status with an emoji in their profile; a teammate sees it next to their name at once, and no more once cleared. */
const web = browserSuite();

const signInAs = (email: string) => signInToSidebar(web.browser, web.t, email);

describe.skipIf(noBrowser)('a profile status in the web client', () => {
  it('is set in the profile and shown live next to the name in a teammate’s sidebar', async () => {
    const team = await web.t.f.team('Plover');
    const ada = await web.t.f.person(team.id, { firstName: 'Ada', lastName: 'Away', password: PASSWORD });
    const mo = await web.t.f.person(team.id, { firstName: 'Mo', lastName: 'Member', password: PASSWORD });
    const session = await fetch(`${web.t.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: ada.email, password: PASSWORD }) });
    const { sessionToken } = (await session.json()) as { sessionToken: string };
    const sent = await fetch(`${web.t.url}/v1/chat.sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionToken}` }, body: JSON.stringify({ to: mo.id, text: 'hello' }) });
    expect(sent.status).toBe(200);

    const asMo = await signInAs(mo.email!);
    const direct = asMo.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /Ada Away/ });
    await direct.waitFor();

    const asAda = await signInAs(ada.email!);
    await asAda.page.getByRole('button', { name: /^Your profile: Ada Away/ }).click();
    const dialog = asAda.page.getByRole('dialog', { name: 'Your profile' });
    await dialog.getByLabel('Emoji (optional)').fill('🌴');
    await dialog.getByLabel('Status text').fill('On holiday');
    await dialog.getByLabel('Clear after').selectOption({ label: '1 day' });
    await dialog.getByRole('button', { name: 'Set status' }).click();
    await asAda.page.getByText('Your status is set.').waitFor();
    expect(await seriousAccessibilityViolations(asAda.page)).toEqual([]);

    await direct.getByText('On holiday').waitFor();
    await saveScreenshot(asMo.page, 'profile-status');
    await dialog.getByRole('button', { name: 'Clear status' }).click();
    await direct.getByText('On holiday').waitFor({ state: 'detached' });
    asMo.expectNoErrors();
    asAda.expectNoErrors();
    await asMo.context.close();
    await asAda.context.close();
  });
});
