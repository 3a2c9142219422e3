/**
 * What the client does next after a person pressed, commanded or clicked something of an app's: the
 * answer of every client action (buttons, slash commands, message actions, ServiceML actions, widget
 * calls, attachment widgets).
 */
import { Type, type Static } from '@sinclair/typebox';
import { desktopTypes, mobileTypes } from './attachment.js';
import { maxToastLength } from './events.js';
import { oneOf } from './params.js';

/**
 * At most `maxToastLength` characters, as the server cuts them. A pattern rather than maxLength: TypeBox's
 * maxLength counts UTF-16 units, in which a character beyond the Basic Multilingual Plane (an emoji)
 * counts twice; the pattern counts a surrogate pair as one character, and reads the same with or
 * without a regular expression's `u` flag. Each of its alternatives excludes the others, so that no
 * text makes it backtrack.
 */
const toastTextPattern = `^(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|[^\\uD800-\\uDBFF]){1,${maxToastLength}}$`;

export const InteractionAnswer = Type.Union(
  [
    Type.Object({ kind: Type.Literal('none') }, { additionalProperties: false }),
    Type.Object(
      {
        kind: Type.Literal('toast'),
        text: Type.String({
          minLength: 1,
          pattern: toastTextPattern,
          description: `the listener’s {"text"}, cut to its first ${maxToastLength} characters, shown to the person who acted`,
        }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      { kind: Type.Literal('openWidget'), url: Type.String(), desktopType: oneOf(desktopTypes), mobileType: oneOf(mobileTypes) },
      { additionalProperties: false },
    ),
    Type.Object({ kind: Type.Literal('openBrowser'), url: Type.String() }, { additionalProperties: false }),
    Type.Object(
      {
        kind: Type.Literal('attachmentWidget'),
        url: Type.String({ description: 'an attachment’s widget, shown inline in the message' }),
        width: Type.Optional(Type.Number()),
        height: Type.Optional(Type.Number()),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'what the client does next: nothing, show a toast, or open a URL that carries the signed event' },
);

export type InteractionAnswer = Static<typeof InteractionAnswer>;
