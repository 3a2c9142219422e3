import type { Attachment } from '@aviary/protocol';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { findVisibleMessage } from '../core/interactions/visibleMessage.js';
import { invalidParameter } from './errors.js';
import { signedInPerson } from './session/auth.js';

/**
 * The policy of an `html` attachment's own document. `sandbox` gives it an opaque origin and no scripts
 * even when someone opens its URL outside the iframe, so third-party HTML never runs as this server.
 * It may style itself (inline styles and <style>) and show images, as the web client's page may; it
 * may load nothing else, submit nothing and be framed only by the web client.
 */
export const ATTACHMENT_HTML_CONTENT_SECURITY_POLICY = [
  'sandbox',
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src data: http: https:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

/** A uid is 26 characters; anything much longer is not one, and is not looked up. */
const MAX_UID_LENGTH = 64;

/**
 * GET /attachments/:messageUid/:index/html (docs/web-client.md): an `html` attachment's body as
 * a document of its own, with its own strict policy, for the person's session (the cookie the iframe's
 * request carries) when they may see the message, with the rules of chat.fetchMessages. A `srcdoc`
 * iframe would inherit the web client's policy, which refuses the inline styles HTML is written with.
 */
export function registerAttachmentHtmlRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: { messageUid: string; index: string } }>('/attachments/:messageUid/:index/html', async (request, reply) => {
    const person = await signedInPerson(ctx, request);
    const { messageUid, index } = request.params;
    if (!/^\d{1,3}$/.test(index)) throw invalidParameter('index', `The attachment's position must be a whole number such as 0; got ${JSON.stringify(index.slice(0, 40))}.`);
    if (messageUid.length > MAX_UID_LENGTH) throw invalidParameter('messageUid', `A message uid has 26 characters; this one has ${messageUid.length}.`);
    const { row } = await findVisibleMessage(ctx.db, person, messageUid);
    const attachments: Attachment[] = row.attachments === null ? [] : JSON.parse(row.attachments);
    const html = attachments[Number(index)]?.views?.html?.inline;
    if (typeof html !== 'string') throw invalidParameter('index', `Message ${row.uid} has no attachment with an html view at position ${Number(index)}.`);
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', ATTACHMENT_HTML_CONTENT_SECURITY_POLICY)
      .header('x-frame-options', 'SAMEORIGIN')
      .header('cross-origin-resource-policy', 'same-origin')
      .header('cache-control', 'private, no-store')
      .send(html);
  });
}
