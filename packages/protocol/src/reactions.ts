/**
 * Reactions (docs/reference/methods.md, "reactions.*"): an emoji a person or an app's bot puts on a
 * message. The emoji is native Unicode, never a name or an image: one emoji, or a sequence of them
 * (skin tones, ZWJ sequences, flags, keycaps), within `maxEmojiLength` UTF-16 code units.
 */
import { Type, type Static } from '@sinclair/typebox';
import { UserId } from './ids.js';

export const reactionLimits = {
  /** UTF-16 code units of one emoji: the longest ZWJ sequences (families, flags of regions) fit. */
  maxEmojiLength: 32,
  /** Different emoji on one message. */
  maxDistinctEmoji: 50,
  /** Reactors named per emoji in a message's summary; `count` says how many there are. */
  maxUserIdsShown: 10,
} as const;

// One emoji: a flag (two regional indicators), or a pictograph with its variation selector, skin tone and
// tag characters (the flags of regions), pictographs joined by ZWJ; or a keycap (a digit, # or * and U+20E3).
const element = String.raw`(?:\p{Regional_Indicator}{2}|\p{Extended_Pictographic}(?:\u{FE0F}|\p{Emoji_Modifier}|[\u{E0020}-\u{E007F}])*)`;
const emojiSequence = new RegExp(String.raw`^(?:${element}(?:\u{200D}${element})*|[#*0-9]\u{FE0F}?\u{20E3})$`, 'u');

/** Whether `value` is one native emoji (a sequence counts as one), within the length limit. */
export function isEmoji(value: string): boolean {
  return value.length > 0 && value.length <= reactionLimits.maxEmojiLength && emojiSequence.test(value);
}

/**
 * One spelling per emoji, so that 👍 and 👍 with a variation selector (as some emoji lists write it) are
 * one reaction: NFC, no U+FE0F after a character shown as emoji by default, and U+FE0F after a pictograph
 * shown as text by default (❤ → ❤️) unless a skin tone follows.
 */
export function canonicalEmoji(value: string): string {
  return value
    .normalize('NFC')
    .replace(/(\p{Emoji_Presentation})\u{FE0F}/gu, '$1')
    .replace(/(?!\p{Emoji_Presentation})(\p{Extended_Pictographic})(?![\u{FE0F}\p{Emoji_Modifier}])/gu, '$1\u{FE0F}');
}

export const Emoji = Type.String({
  minLength: 1,
  maxLength: reactionLimits.maxEmojiLength,
  description: `one native Unicode emoji (a sequence such as 👍🏽 or 👩‍💻 counts as one), at most ${reactionLimits.maxEmojiLength} UTF-16 code units`,
});

/** One emoji's reactions on a message, as a reader sees them. */
export const MessageReaction = Type.Object(
  {
    emoji: Type.String(),
    count: Type.Integer({ minimum: 1 }),
    userIds: Type.Array(UserId, { maxItems: reactionLimits.maxUserIdsShown, description: `who reacted, the first ${reactionLimits.maxUserIdsShown} (the reader first when they did)` }),
    me: Type.Boolean({ description: 'whether the reader reacted with this emoji' }),
  },
  { additionalProperties: false },
);
export type MessageReactionModel = Static<typeof MessageReaction>;
