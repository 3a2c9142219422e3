import { expect, it } from 'vitest';
import { newUlid } from '../../src/store/ids.js';
import { MAIL_ATTEMPTS } from '../../src/core/mail/sender.js';
import { pruneMailOutbox } from '../../src/core/mail/prune.js';
import { forEachDialect } from '../helpers/server.js';

const DAY_MS = 24 * 60 * 60 * 1000;

forEachDialect('retention of the mail outbox', (t) => {
  it('deletes mail sent, or given up, over a week ago; mail still to be sent stays, whatever its age', async () => {
    const { db } = t().testStore.store;
    const now = Date.now();
    // Addresses of this test's own, so that the other mail of the store is left out of what is looked at.
    const tag = newUlid(now).toLowerCase();
    const mail = async (name: string, daysAgo: number, state: { sent?: boolean; attempts?: number }) => {
      const at = now - daysAgo * DAY_MS;
      await db
        .insertInto('mail_outbox')
        .values({ id: newUlid(at), to_address: `${name}-${tag}@example.test`, subject: 'Reset your password', body: 'https://aviary.example/reset-password#pwr_secret', attempts: state.attempts ?? 1, next_attempt_at: at, sent_at: state.sent ? at : null, last_error: null, created_at: at })
        .execute();
    };
    await mail('sent-old', 8, { sent: true });
    await mail('sent-recent', 6, { sent: true });
    await mail('given-up-old', 8, { attempts: MAIL_ATTEMPTS });
    await mail('given-up-recent', 2, { attempts: MAIL_ATTEMPTS });
    await mail('waiting-old', 30, { attempts: 1 });
    const left = async () =>
      (await db.selectFrom('mail_outbox').select('to_address').where('to_address', 'like', `%-${tag}@example.test`).orderBy('to_address').execute()).map((row) => row.to_address.split(`-${tag}`)[0]);

    expect(await pruneMailOutbox(db, now, 1)).toBeGreaterThanOrEqual(2);
    expect(await left()).toEqual(['given-up-recent', 'sent-recent', 'waiting-old']);
    // The server's hourly job does the same.
    await mail('sent-old-again', 8, { sent: true });
    await t().server.retention.runOnce();
    expect(await left()).toEqual(['given-up-recent', 'sent-recent', 'waiting-old']);
  });
});
