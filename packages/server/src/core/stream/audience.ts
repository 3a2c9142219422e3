import { isChannelId } from '@aviary/protocol';

/**
 * Who may receive a stream entry, decided again whenever it is handed out (live or replayed), so that
 * both apply one rule (`mayReceive`):
 *
 * - `team`: everyone in the team (an app switched off for everyone);
 * - `people`: everyone in the team but its guests, and the guests listed (a person's profile: only the
 *   guests who meet them hear of it, guestsReaching);
 * - `users`: exactly these people (their own installs, read markers);
 * - `chat`: whoever reads the chat when the entry is handed out — a channel's members, a direct chat's
 *   two people (its key, the two ids joined by `|`); `only` narrows it (a `visibleTo` message: the
 *   people listed and the sender), `also` widens it (the people a membership change removed).
 */
export type Audience =
  | { to: 'team' }
  | { to: 'people'; guests: readonly string[] }
  | { to: 'users'; users: readonly string[] }
  | { to: 'chat'; chat: string; only?: readonly string[]; also?: readonly string[] };

/** An audience as read back from the store, its lists made sets once for every person it is checked for. */
export type ParsedAudience =
  | { to: 'team' }
  | { to: 'people'; guests: ReadonlySet<string> }
  | { to: 'users'; users: ReadonlySet<string> }
  | { to: 'chat'; chat: string; channel: boolean; only?: ReadonlySet<string>; also?: ReadonlySet<string> };

export const serializeAudience = (audience: Audience): string => JSON.stringify(audience);

export function parseAudience(text: string): ParsedAudience {
  const audience = JSON.parse(text) as Audience;
  switch (audience.to) {
    case 'team':
      return audience;
    case 'people':
      return { to: 'people', guests: new Set(audience.guests) };
    case 'users':
      return { to: 'users', users: new Set(audience.users) };
    case 'chat':
      return {
        to: 'chat',
        chat: audience.chat,
        channel: isChannelId(audience.chat),
        ...(audience.only ? { only: new Set(audience.only) } : {}),
        ...(audience.also ? { also: new Set(audience.also) } : {}),
      };
  }
}

/** What a reader is, for `mayReceive`: who, whether a guest, and which channels they are a member of right now. */
export interface Reader {
  userId: string;
  guest: boolean;
  channels: ReadonlySet<string>;
}

export function mayReceive(reader: Reader, audience: ParsedAudience): boolean {
  switch (audience.to) {
    case 'team':
      return true;
    case 'people':
      return !reader.guest || audience.guests.has(reader.userId);
    case 'users':
      return audience.users.has(reader.userId);
    case 'chat': {
      if (audience.also?.has(reader.userId)) return true;
      if (audience.only && !audience.only.has(reader.userId)) return false;
      return audience.channel ? reader.channels.has(audience.chat) : audience.chat.split('|').includes(reader.userId);
    }
  }
}
