import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventTokenError, verifyWidgetRequest, WidgetRequestError, type EventOf, type VerifyWidgetRequestOptions } from '@aviary/sdk';

/** The four parameters Aviary appends to a widget URL; the compose form carries them back on submit. */
const serviceParams = ['serviceEvent', 'serviceEventToken', 'serviceClient', 'serviceWidgetType'] as const;
const maxFormBytes = 16 * 1024;

export interface PollDraft {
  question: string;
  answers: string[];
}

/**
 * The widget `/poll` opens: a form to compose the poll (prefilled from what followed the command), and
 * its submission. Both verify the four widget parameters with the SDK, so only a person Aviary sent here,
 * in the chat they were in, can post a poll; each token posts at most one.
 */
export function composeWidget(verify: VerifyWidgetRequestOptions, post: (event: EventOf<'client.slashCommand'>, draft: PollDraft) => Promise<void>) {
  const used = new Set<string>();

  async function verified(params: URLSearchParams, res: ServerResponse) {
    try {
      const request = await verifyWidgetRequest(`/?${params}`, verify);
      if (request.event.name === 'client.slashCommand') return { event: request.event, jti: request.claims.jti };
      page(res, 400, '<p>This widget composes a poll from the /poll command only.</p>');
    } catch (error) {
      if (!(error instanceof WidgetRequestError || error instanceof EventTokenError)) throw error;
      page(res, error instanceof WidgetRequestError ? 400 : 403, `<p>This page must be opened from Aviary: ${escape(error.message)}.</p>`);
    }
    return undefined;
  }

  return {
    async show(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const params = new URL(req.url ?? '/', 'http://poll.invalid').searchParams;
      const request = await verified(params, res);
      if (!request) return;
      const [question = '', ...answers] = request.event.text.split('|').map((part) => part.trim());
      const hidden = serviceParams.map((name) => `<input type="hidden" name="${name}" value="${escape(params.get(name) ?? '')}">`).join('');
      page(
        res,
        200,
        `<form method="post" action="polls">${hidden}
<label>Question <input name="question" required maxlength="200" value="${escape(question)}"></label>
<label>Answers, one a line (2 to 10) <textarea name="answers" rows="6" required>${escape(answers.filter(Boolean).join('\n'))}</textarea></label>
<button type="submit">Post the poll</button></form>`,
      );
    },

    async submit(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const form = await readForm(req);
      if (!form) return page(res, 413, '<p>The form is too large.</p>');
      const request = await verified(new URLSearchParams(serviceParams.map((name) => [name, form.get(name) ?? ''])), res);
      if (!request) return;
      const question = (form.get('question') ?? '').trim();
      const answers = (form.get('answers') ?? '').split('\n').map((line) => line.trim()).filter(Boolean);
      if (!question || question.length > 200 || answers.length < 2 || answers.length > 10) return page(res, 400, '<p>A poll needs a question and 2 to 10 answers.</p>');
      if (used.has(request.jti)) return page(res, 409, '<p>This poll was posted already.</p>');
      used.add(request.jti);
      await post(request.event, { question, answers });
      page(res, 200, '<p>Poll posted. You can close this window.</p>');
    },
  };
}

function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > maxFormBytes) {
        resolve(undefined);
        req.destroy();
      }
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

function page(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'" });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>New poll</title></head><body>${body}</body></html>`);
}

const escape = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
