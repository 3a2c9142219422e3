/**
 * The rules of mentions and notifications in the web client, free of the page (only the protocol): what
 * the composer sends as mentions, what mentions the person, which new message notifies, and the favicon
 * with a count. Unit-tested in packages/web/test/notify.test.ts.
 */
import { broadcastOf, doNotDisturbActive, isChannelId, levelOf, type MessageModel, type NotificationSettings } from '@aviary/protocol';

/** The people picked with `@` whose names are still in the text, each once: the message's `mentions`. */
export function mentionedIds(text: string, picked: ReadonlyArray<{ userId: string; label: string }>): string[] {
  return [...new Set(picked.filter((mention) => text.includes(`@${mention.label}`)).map((mention) => mention.userId))];
}

/** A message that mentions the person: by name, or @channel / @here in a channel (the server counts it alike). */
export function mentionsMe(message: Pick<MessageModel, 'to' | 'text' | 'mentions'>, me: string): boolean {
  return message.mentions?.includes(me) === true || (isChannelId(message.to) && broadcastOf(message.text) !== undefined);
}

/** The chat a message belongs to, as the person names it: the channel, or the other person. */
const chatOf = (message: Pick<MessageModel, 'from' | 'to'>, me: string): string => (isChannelId(message.to) ? message.to : message.from === me ? message.to : message.from);

/**
 * Whether a new message notifies the person: direct messages, mentions and replies in threads they follow
 * (`followed`: it came as thread.followedReply), or every message of a chat set to `all`; never their
 * own, a muted chat's, or during do-not-disturb. Before the settings are known, the defaults.
 */
export function shouldNotify(message: MessageModel, me: string, settings: NotificationSettings | undefined, now: number, followed = false): boolean {
  if (message.from === me) return false;
  const direct = !isChannelId(message.to);
  if (!settings) return direct || followed || mentionsMe(message, me);
  const level = levelOf(settings, chatOf(message, me));
  if (level === 'mute' || doNotDisturbActive(settings, now)) return false;
  return level === 'all' || direct || followed || mentionsMe(message, me);
}

/** The favicon with a count on it, as an SVG data URL (red when something mentions the person). */
export function badgedIcon(count: number, mention: boolean): string {
  const label = count > 99 ? '99+' : String(count);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#3346d3"/>` +
    `<path d="M9 23 16 8l7 15h-4l-3-7-3 7z" fill="#fff"/><circle cx="23" cy="9" r="9" fill="${mention ? '#c92a2a' : '#e8590c'}"/>` +
    `<text x="23" y="13" font-family="Arial,sans-serif" font-size="${label.length > 2 ? 8 : 11}" font-weight="700" fill="#fff" text-anchor="middle">${label}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
