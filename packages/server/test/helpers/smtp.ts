import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail the loopback SMTP server received: its recipients, subject and text (quoted-printable decoded). */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

export interface TestSmtp {
  /** AVIARY_SMTP_URL for the server under test. */
  url: string;
  received: ReceivedMail[];
  /** The next mail to `to` not yet taken, as soon as it arrives (rejects after `timeoutMs`). */
  nextMailTo(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** How many times the server refuses the next mails (a failing mail server). */
  refuseNext(count: number): void;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): string {
  return Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
}

function parse(raw: string, to: string[]): ReceivedMail {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/im.exec(headers)?.[1] ?? '';
  const body = rest.join('\n\n');
  const text = /quoted-printable/i.test(headers) ? decodeQuotedPrintable(body) : body;
  return { to, subject, text: text.replace(/\r\n/g, '\n') };
}

/** A real SMTP server (smtp-server) on loopback, port 0, without TLS or authentication. */
export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: Array<() => void> = [];
  let refusals = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusals > 0) {
          refusals -= 1;
          callback(Object.assign(new Error('mailbox busy, try later'), { responseCode: 451 }));
          return;
        }
        received.push(parse(Buffer.concat(chunks).toString('utf8'), session.envelope.rcptTo.map((r) => r.address)));
        callback();
        for (const wake of waiters.splice(0)) wake();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseNext: (count) => {
      refusals = count;
    },
    nextMailTo(to, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        const look = () => {
          const mail = received.find((m) => !taken.has(m) && m.to.includes(to));
          if (!mail) return waiters.push(look);
          taken.add(mail);
          clearTimeout(timer);
          resolve(mail);
        };
        look();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text. */
export const linkIn = (mail: ReceivedMail): string => /https?:\/\/\S+/.exec(mail.text)![0];
