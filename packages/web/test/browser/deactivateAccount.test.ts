import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser } from '../../../server/test/helpers/browser.js';
import { PASSWORD, signInPage } from './cast.js';
import { browserSuite } from './suite.js';

/** Your profile → Deactivate account: a wrong password refused in place, the right one ends the account and the page signs out. */
const web = browserSuite();

describe.skipIf(noBrowser)('deactivating one’s own account in the web client', () => {
  it('refuses a wrong password in place, then deactivates and lands on signing in', async () => {
    const team = await web.t.f.team('Leaving');
    const admin = await web.t.f.person(team.id, { role: 'admin' });
    const dora = await web.t.f.person(team.id, { firstName: 'Dora', lastName: 'Departing', password: PASSWORD });
    await createChannel(web.t.server.ctx, { user: admin, appId: null }, { name: 'general', members: [dora.id] });
    const watched = await signInPage(web.browser, web.t, dora.email!);
    const { page } = watched;
    await page.getByRole('button', { name: /^Your profile: Dora Departing/ }).click();
    const form = page.getByRole('form', { name: 'Deactivate account' });
    await form.getByLabel('Password').fill('not my password');
    await form.getByRole('button', { name: 'Deactivate my account' }).click();
    await form.getByRole('alert').getByText(/not your current password/).waitFor();
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Deactivate my account' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const row = await web.t.testStore.store.db.selectFrom('users').select('deactivated_at').where('id', '=', dora.id).executeTakeFirstOrThrow();
    expect(row.deactivated_at).not.toBeNull();
    await watched.context.close();
  });
});
