import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import type { CoreContext } from '../context.js';

/** How many times a mail is tried, and how long after each failure the next try comes. */
export const MAIL_ATTEMPTS = 4;
const RETRY_AFTER_MS = [10_000, 60_000, 600_000];

const transports = new WeakMap<Config, Transporter>();

function transportOf(config: Config): Transporter | undefined {
  if (config.smtpUrl === undefined) return undefined;
  let transport = transports.get(config);
  if (!transport) {
    transport = nodemailer.createTransport(config.smtpUrl, { from: config.mailFrom });
    transports.set(config, transport);
  }
  return transport;
}

const retryTimers = new Map<Config, NodeJS.Timeout>();

/** Cancels the retry a server's sender has planned: its store is closing (the next process sends what is left). */
export function stopMailRetries(config: Config): void {
  clearTimeout(retryTimers.get(config));
  retryTimers.delete(config);
}

/**
 * Sends every due mail of the outbox once. Each row is claimed by one conditional UPDATE that counts the
 * attempt and moves its next try on, so two processes never send the same mail at once; a failure is
 * logged (never the body, which holds a link) and tried again later, up to MAIL_ATTEMPTS times.
 */
export async function sendDueMail(ctx: CoreContext): Promise<void> {
  const transport = transportOf(ctx.config);
  if (!transport) return;
  const now = ctx.now();
  const due = await ctx.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('sent_at', 'is', null)
    .where('attempts', '<', MAIL_ATTEMPTS)
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(50)
    .execute();
  let retryIn: number | undefined;
  for (const mail of due) {
    const wait = RETRY_AFTER_MS[Math.min(mail.attempts, RETRY_AFTER_MS.length - 1)];
    const claimed = await ctx.db
      .updateTable('mail_outbox')
      .set({ attempts: mail.attempts + 1, next_attempt_at: now + wait })
      .where('id', '=', mail.id)
      .where('attempts', '=', mail.attempts)
      .where('sent_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    try {
      await transport.sendMail({ from: ctx.config.mailFrom, to: mail.to_address, subject: mail.subject, text: mail.body });
      await ctx.db.updateTable('mail_outbox').set({ sent_at: ctx.now(), last_error: null }).where('id', '=', mail.id).execute();
      ctx.log.info({ mailId: mail.id, attempt: mail.attempts + 1 }, 'mail sent');
    } catch (error) {
      const reason = error instanceof Error ? error.message.slice(0, 500) : String(error);
      await ctx.db.updateTable('mail_outbox').set({ last_error: reason }).where('id', '=', mail.id).execute();
      const last = mail.attempts + 1 >= MAIL_ATTEMPTS;
      ctx.log.warn({ mailId: mail.id, attempt: mail.attempts + 1, err: reason }, last ? 'mail not sent; giving up' : 'mail not sent; will retry');
      if (!last) retryIn = Math.min(retryIn ?? wait, wait);
    }
  }
  if (retryIn !== undefined && !retryTimers.has(ctx.config)) {
    const timer = setTimeout(() => {
      retryTimers.delete(ctx.config);
      ctx.background.run('mail retry', () => sendDueMail(ctx));
    }, retryIn);
    timer.unref();
    retryTimers.set(ctx.config, timer);
  }
}
