import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { sendDueMail } from '../../src/core/mail/sender.js';
import { dialects } from '../helpers/dialects.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { linkIn, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { closeStreams, openStream } from '../stream/harness.js';
import { callMethod, freePort, sessionOf, signInAnswer, tokenOf } from './harness.js';

afterEach(closeStreams);

/** Resolves when the stream closes within a second; fails the test otherwise ("at once", not at the next sweep). */
function withinASecond<T>(closed: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the stream was still open a second later')), 1_000);
  });
  return Promise.race([closed, late]).finally(() => clearTimeout(timer));
}

/**
 * Mail through a real SMTP server on loopback: invitations, password resets and verification links are
 * read from the mail received and followed. The server's clock is injectable for the retry of a refused mail.
 */
const PASSWORD = 'a long and private passphrase';
let skew = 0;
const now = () => Date.now() + skew;

for (const dialect of dialects) {
  describe(`mail through SMTP [${dialect}]`, () => {
    let t: TestServer;
    let smtp: TestSmtp;
    beforeAll(async () => {
      smtp = await startSmtp();
      const port = await freePort();
      t = await startTestServer(dialect, { port, publicUrl: `http://127.0.0.1:${port}`, smtpUrl: smtp.url, mailFrom: 'Aviary <aviary@example.test>', stream: { sessionCheckMs: 3_600_000 } }, { now });
    });
    afterAll(async () => {
      await stopTestServer(t);
      await smtp.close();
    });

    async function team() {
      const { id } = await t.f.team('Mail Team');
      const admin = await t.f.person(id, { role: 'admin', firstName: 'Ada', lastName: 'Admin' });
      return { id, admin, asAdmin: await sessionOf(t, admin) };
    }
    const signUp = (token: string, fields: Record<string, unknown>) =>
      callMethod(t.url, 'invitations.accept', { inviteToken: token, firstName: 'New', lastName: 'Person', password: PASSWORD, ...fields });

    it('mails an email invitation (no link in the answer); following it signs the person up, verified', async () => {
      const { asAdmin } = await team();
      const made = await asAdmin('invitations.create', { email: 'Invitee@Example.test' });
      expect(made.body).toMatchObject({ mailed: true, url: null, invitation: { email: 'invitee@example.test' } });
      const mail = await smtp.nextMailTo('invitee@example.test');
      expect(mail.subject).toBe('Ada Admin invited you to Mail Team on Aviary');
      const link = linkIn(mail);
      expect(link.startsWith(`${t.url}/invite/inv_`)).toBe(true);
      const joined = await signUp(tokenOf(link), {});
      expect(joined.body).toMatchObject({ email: 'invitee@example.test', emailVerified: true });
    });

    it('a sign-up by link gets a verification mail; until it is followed the person may not invite', async () => {
      const { asAdmin, admin } = await team();
      await asAdmin('team.updateSettings', { whoMayInvite: 'members' });
      const made = await asAdmin('invitations.create', {});
      expect(made.body.url.startsWith(`${t.url}/invite/`)).toBe(true);
      const joined = await signUp(tokenOf(made.body.url), { email: 'linked@example.test' });
      expect(joined.body.emailVerified).toBe(false);
      const user = await t.testStore.store.db.selectFrom('users').selectAll().where('id', '=', joined.body.userId).executeTakeFirstOrThrow();
      const asNew = await sessionOf(t, user);
      expect((await asNew('invitations.create', {})).body.description).toMatch(/Verify your email first/);

      const mail = await smtp.nextMailTo('linked@example.test');
      const link = linkIn(mail);
      expect(link.startsWith(`${t.url}/verify-email#ver_`)).toBe(true);
      const linkToken = link.split('#')[1];
      expect((await callMethod(t.url, 'users.verifyEmail', { linkToken })).body).toEqual({ email: 'linked@example.test' });
      expect((await callMethod(t.url, 'users.verifyEmail', { linkToken })).body).toMatchObject({ error: 'AccountLinkUnusable', parameter: 'linkToken' });
      expect((await asNew('invitations.create', {})).status).toBe(200);
      expect(admin.id).toBeTruthy();
    });

    it('forgot password: the same answer for any email; the mailed link sets a new password once and ends every session', async () => {
      const { admin } = await team();
      await t.f.person(admin.team_id, { email: 'forgetful@example.test', password: PASSWORD });
      const signedIn = await signInAnswer(t.url, 'forgetful@example.test', PASSWORD);
      const session = signedIn.body.sessionToken as string;
      const stream = await openStream(t, undefined, { headers: { authorization: `Bearer ${session}` } });

      const known = await callMethod(t.url, 'users.requestPasswordReset', { email: 'Forgetful@example.test' });
      const unknown = await callMethod(t.url, 'users.requestPasswordReset', { email: 'nobody-here@example.test' });
      expect([known, unknown]).toEqual([
        { status: 200, body: {} },
        { status: 200, body: {} },
      ]);
      const mail = await smtp.nextMailTo('forgetful@example.test');
      expect(mail.subject).toBe('Set a new Aviary password for Mail Team');
      const linkToken = linkIn(mail).split('#')[1];
      expect(linkIn(mail).startsWith(`${t.url}/reset-password#pwr_`)).toBe(true);

      expect((await callMethod(t.url, 'users.resetPassword', { linkToken, newPassword: 'password1' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'newPassword' });
      const reset = await callMethod(t.url, 'users.resetPassword', { linkToken, newPassword: 'a brand new passphrase' });
      expect(reset.body).toEqual({ email: 'forgetful@example.test', teamId: admin.team_id });
      await withinASecond(stream.closed);
      expect((await callMethod(t.url, 'users.getInfo', {}, session)).body).toMatchObject({ error: 'NotSignedIn' });
      expect((await signInAnswer(t.url, 'forgetful@example.test', 'a brand new passphrase')).status).toBe(200);
      const again = await callMethod(t.url, 'users.resetPassword', { linkToken, newPassword: 'another new passphrase' });
      expect(again).toMatchObject({ status: 410, body: { error: 'AccountLinkUnusable' } });
      expect(again.body.description).toMatch(/already used/);
    });

    it('a reset link is good for an hour only', async () => {
      const { admin } = await team();
      await t.f.person(admin.team_id, { email: 'slow@example.test', password: PASSWORD });
      await callMethod(t.url, 'users.requestPasswordReset', { email: 'slow@example.test' });
      const linkToken = linkIn(await smtp.nextMailTo('slow@example.test')).split('#')[1];
      skew += 61 * 60 * 1000;
      try {
        const late = await callMethod(t.url, 'users.resetPassword', { linkToken, newPassword: 'a brand new passphrase' });
        expect(late.body).toMatchObject({ error: 'AccountLinkUnusable' });
        expect(late.body.description).toMatch(/expired/);
      } finally {
        skew -= 61 * 60 * 1000;
      }
    });

    it('a mail the SMTP server refuses is tried again later, and then arrives', async () => {
      const { asAdmin, admin } = await team();
      await createChannel({ ...t.server.ctx, now }, { user: admin, appId: null }, { name: 'retry', type: 'public', members: [] });
      smtp.refuseNext(1);
      await asAdmin('invitations.create', { email: 'retry@example.test' });
      const row = () => t.testStore.store.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'retry@example.test').executeTakeFirstOrThrow();
      // The refusal is recorded before the mail is due again; the next look, later on the server's clock, sends it.
      await expect.poll(async () => (await row()).last_error, { interval: 20, timeout: 10_000 }).toMatch(/busy/);
      skew += 11_000;
      try {
        await sendDueMail(t.server.ctx);
      } finally {
        skew -= 11_000;
      }
      expect((await smtp.nextMailTo('retry@example.test')).subject).toMatch(/invited you/);
      expect((await row()).attempts).toBe(2);
    });
  });
}
