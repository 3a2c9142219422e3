import { parseAudience, type ParsedAudience } from '../../core/stream/audience.js';
import { membershipChange, type MembershipChange } from '../../core/stream/membership.js';
import type { StoredStreamEntry } from '../../core/queries/stream.js';
import type { FramePayload } from '../../core/stream/entries.js';

/**
 * A stream entry as this process hands it out: its audience parsed and its frame encoded once, so that
 * a message to a channel of a thousand is one JSON text and one buffer, shared by every socket it goes to.
 */
export interface StreamEntry {
  seq: number;
  audience: ParsedAudience;
  membership: MembershipChange | undefined;
  /** A person's new role (`user.roleChanged`): a stream of theirs starts or stops reading as a guest. */
  role: FramePayload<'user.roleChanged'> | undefined;
  frame: Buffer;
}

export function toStreamEntry(stored: StoredStreamEntry): StreamEntry {
  const membership = stored.type.startsWith('channel.') ? membershipChange(stored.type, JSON.parse(stored.payload)) : undefined;
  const role = stored.type === 'user.roleChanged' ? (JSON.parse(stored.payload) as FramePayload<'user.roleChanged'>) : undefined;
  return { seq: stored.seq, audience: parseAudience(stored.audience), membership, role, frame: encodeFrame(stored) };
}

/** `{"type":…,"cursor":"<seq>",…payload}`, spliced as text: the payload is already a JSON object. */
function encodeFrame(stored: StoredStreamEntry): Buffer {
  const head = `{"type":${JSON.stringify(stored.type)},"cursor":"${stored.seq}"`;
  const fields = stored.payload.slice(1).trimStart();
  return Buffer.from(fields.startsWith('}') ? `${head}}` : `${head},${fields}`);
}
