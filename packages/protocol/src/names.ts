/**
 * What every name people read must be: the names of apps, people and channels, and a message's
 * `sendAs` name. A name shows who or what something is, so one that shows nothing, or that reorders the
 * text around it, could pass for another. Pure: the server refuses with it, the web client may ask it.
 */

/**
 * Characters that show nothing by themselves, in a name normalised to NFKC: those Unicode marks as
 * ignorable by default, white space and separators, format and control characters, lone surrogates,
 * combining marks (which need a letter to sit on), and the blanks Unicode classes as letters or symbols
 * (the Hangul fillers, the Braille pattern blank).
 */
const showsNothing = /[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Z}\p{Cf}\p{Cc}\p{Cs}\p{M}\u115F\u1160\u2800\u3164\uFFA0]/gu;

/**
 * The bidirectional controls (embeddings, overrides, isolates and the direction marks): in a name they
 * can make the text after it read backwards, or make one name look like another.
 */
const bidiControl = /\p{Bidi_Control}/u;

/**
 * Control characters (line breaks, tabs, NUL…): a name is one line wherever it shows, and it goes into
 * mail the server sends (an invitation names who sent it), where a line break would start text of the
 * name-giver's choosing on a line of its own.
 */
const controlCharacter = /\p{Cc}/u;

/** Why `name` cannot be a name, worded to follow "<field> …"; undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (bidiControl.test(name)) return 'must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C)';
  if (controlCharacter.test(name)) return 'must be one line, without line breaks, tabs or other control characters';
  if (name.normalize('NFKC').replace(showsNothing, '') === '') return 'must contain a visible character; it has only blanks, invisible or format characters';
  return undefined;
}
