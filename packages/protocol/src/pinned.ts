/**
 * Pinned messages and saved items (docs/reference/methods.md, "pins.*" and "saved.*"): a message pinned
 * to its chat for everyone who reads it, and a message a person keeps for themselves.
 */
import { Type, type Static } from '@sinclair/typebox';
import { UserId } from './ids.js';

export const pinLimits = {
  /** Pins in one chat (a channel or a direct chat). */
  maxPinsPerChat: 100,
  /** Saved items on one page of saved.list (default 50). */
  maxSavedPage: 100,
} as const;

/** Who pinned a message to its chat, and when. */
export const PinInfo = Type.Object(
  { by: UserId, at: Type.Integer({ description: 'when it was pinned, milliseconds since the epoch' }) },
  { additionalProperties: false, description: 'the message is pinned to its chat: who pinned it and when' },
);
export type PinInfoModel = Static<typeof PinInfo>;
