import type { Db } from '../../store/store.js';
import { MAIL_ATTEMPTS } from './sender.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a mail stays in the outbox once it went out, or once the sender gave up on it. */
export const MAIL_KEPT_MS = 7 * DAY_MS;

/**
 * Deletes the mails sent, or given up (MAIL_ATTEMPTS failed), more than MAIL_KEPT_MS ago, a batch at a
 * time: their bodies carry links (a password reset's, an address's verification, an invitation's) that
 * the server has no reason to keep. A mail still to be sent stays, whatever its age. Answers how many.
 */
export async function pruneMailOutbox(db: Db, now: number, batchSize = 500): Promise<number> {
  const cutoff = now - MAIL_KEPT_MS;
  let deleted = 0;
  for (;;) {
    const ids = (
      await db
        .selectFrom('mail_outbox')
        .select('id')
        .where((eb) =>
          eb.or([eb.and([eb('sent_at', 'is not', null), eb('sent_at', '<', cutoff)]), eb.and([eb('sent_at', 'is', null), eb('attempts', '>=', MAIL_ATTEMPTS), eb('created_at', '<', cutoff)])]),
        )
        .orderBy('id')
        .limit(batchSize)
        .execute()
    ).map((row) => row.id);
    if (ids.length === 0) break;
    const result = await db.deleteFrom('mail_outbox').where('id', 'in', ids).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
    if (ids.length < batchSize) break;
  }
  return deleted;
}
