import type { Tx } from '../../store/store.js';
import { newUlid } from '../../store/ids.js';
import type { Effects } from '../effects/effects.js';

/** One mail as the server writes it: plain text, to one address. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Queues a mail in the change's transaction; it goes out only after the commit (the `sendMail` effect
 * wakes the sender), and never when the change rolls back. A process that stops before sending leaves
 * the row for the next process to send when it starts.
 */
export async function enqueueMail(tx: Tx, effects: Effects, mail: Mail, now: number): Promise<void> {
  await tx
    .insertInto('mail_outbox')
    .values({ id: newUlid(now), to_address: mail.to, subject: mail.subject, body: mail.text, attempts: 0, next_attempt_at: now, sent_at: null, last_error: null, created_at: now })
    .execute();
  effects.add({ kind: 'sendMail' });
}
