import { flockEventNames, flockNamedEvent } from '@aviary/protocol';

/**
 * The body of a listener request for an app with Flock-compatible naming (docs/flock-compatibility.md):
 * the stored event (always under the specification's names, as the developer's delivery log shows it)
 * with Flock's names. Events whose names Flock shares go as stored, byte for byte.
 */
export function flockListenerBody(name: string, payload: string): string {
  if (flockEventNames[name] === undefined && name !== 'chat.generateUrlPreview') return payload;
  return JSON.stringify(flockNamedEvent(JSON.parse(payload) as { name: string }));
}
