import type { PersonStatusModel } from '@aviary/protocol';
import { invalidParameter } from '../errors.js';
import { checkVisibleName } from './names.js';

/** The status columns of a user row (migration 0028). */
export interface StatusColumns {
  status_text: string | null;
  status_emoji: string | null;
  status_expires_at: number | null;
}

/** One emoji (with its modifiers and joiners), never text dressed as one. */
const oneEmoji = /^\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F|\u200D\p{Extended_Pictographic})*$/u;

/**
 * A status change as users.updateProfile takes it: `statusText` '' clears the status (emoji and expiry
 * too); otherwise the text is trimmed and must show something, the emoji is one emoji, and the expiry
 * is in the future (0: none). Answers the columns to write, or undefined when nothing of the status is given.
 */
export function checkStatusChange(input: { statusText?: string | null; statusEmoji?: string | null; statusExpiresAt?: number }, now: number): StatusColumns | undefined {
  const { statusText, statusEmoji, statusExpiresAt } = input;
  if (statusText === undefined) {
    if (statusEmoji !== undefined || statusExpiresAt !== undefined) throw invalidParameter('statusText', 'statusText is needed with statusEmoji or statusExpiresAt: give the status they belong to.');
    return undefined;
  }
  const text = (statusText ?? '').trim();
  if (text === '') return { status_text: null, status_emoji: null, status_expires_at: null };
  checkVisibleName('statusText', text);
  const emoji = statusEmoji?.trim() ?? '';
  if (emoji !== '' && !oneEmoji.test(emoji)) throw invalidParameter('statusEmoji', `statusEmoji must be one emoji such as 🌴; got ${JSON.stringify(emoji.slice(0, 32))}.`);
  const expires = statusExpiresAt ?? 0;
  if (expires !== 0 && expires <= now) throw invalidParameter('statusExpiresAt', 'statusExpiresAt must be in the future (epoch milliseconds), or 0 for a status that stays until changed.');
  return { status_text: text, status_emoji: emoji === '' ? null : emoji, status_expires_at: expires === 0 ? null : expires };
}

/** The person's status at `now`: none once it has expired (so the injectable clock clears it). */
export function statusAt(row: Partial<StatusColumns>, now: number): PersonStatusModel | undefined {
  if (row.status_text === undefined || row.status_text === null) return undefined;
  const expiresAt = row.status_expires_at === undefined || row.status_expires_at === null ? undefined : Number(row.status_expires_at);
  if (expiresAt !== undefined && expiresAt <= now) return undefined;
  return { text: row.status_text, ...(row.status_emoji ? { emoji: row.status_emoji } : {}), ...(expiresAt !== undefined ? { expiresAt } : {}) };
}
