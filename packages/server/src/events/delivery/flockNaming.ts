import { attachmentWithOurNames, flockEventNames, flockNamedEvent } from '@aviary/protocol';

/**
 * The body of a listener request for an app with Flock-compatible naming (docs/flock-compatibility.md):
 * the stored event (always under the specification's names, as the developer's delivery log shows it)
 * with Flock's names. Events whose names Flock shares go as stored, byte for byte.
 */
export function flockListenerBody(name: string, payload: string): string {
  if (flockEventNames[name] === undefined && name !== 'chat.generateUrlPreview') return payload;
  return JSON.stringify(flockNamedEvent(JSON.parse(payload) as { name: string }));
}

/**
 * A Flock-named app's answer with our names: an attachment (wrapped in `attachment` or not, as the
 * answer to `chat.generateUrlPreview` may be) with `views.flockml` gets it as `views.serviceml`. An
 * answer that gives both is left as it is, for the attachment's check to refuse.
 */
export function flockAnswerWithOurNames(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const wrapped = 'attachment' in body;
  const renamed = attachmentWithOurNames(wrapped ? (body as { attachment: unknown }).attachment : body);
  if (renamed === undefined || renamed.both) return body;
  return wrapped ? { ...body, attachment: renamed.attachment } : renamed.attachment;
}
