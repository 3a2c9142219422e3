/**
 * The fast way through validateServiceML (issue #4). Most documents apps send are flat: text and
 * `<br/>`, and elements that hold text, breaks and formatting — `<b>Step 1</b>`, `<b><i>7 s</i></b>`,
 * `<a href="https://…"><b>logs</b></a>`, `<user …>Ada</user>`, `<action id="rerun" type="sendEvent">
 * Re-run</action>`. That shape, written the usual way (attributes in double quotes, in the order of
 * docs/reference/serviceml.md, single spaces), is one regular expression, and the engine checks a whole document
 * against it in native code several times faster than the tokenizer walks it. A document it matches
 * is valid; one it does not match may still be, and the parser (parse.ts) decides, and says what is
 * wrong if anything is.
 *
 * Why a match is always valid: each piece accepts a subset of what the parser accepts. Text has no
 * `<` and `&` only in a reference: the five entities, or numeric references whose code points are
 * checked below. Elements nest at most two deep below the root, and only formatting and `<br/>` go
 * inside another element, so links and actions never nest and `<user>` holds text only. Action ids,
 * types and choices come from action.ts, user ids from the schema's own pattern, URLs from url.ts's
 * pattern for markup. Characters XML forbids are looked for separately, over the whole document, by
 * the tokenizer's own expression.
 *
 * Why it cannot be made to run long: each level is the unrolled loop `text (element text)*`, where
 * text and each element begin with different characters and nothing can match the same characters
 * two ways, so a failed match backs out in time linear in the length.
 */

import { desktopTypes, mobileTypes, userIdShape } from '@aviary/protocol';
import { actionTypeNeedsUrl, actionTypeSpellings, normaliseActionType } from './action.js';
import { FORBIDDEN_CHARACTER, isXmlChar } from './characters.js';
import { formattingElementNames, MAX_ACTION_ID_LENGTH } from './schema.js';
import { PLAIN_WEB_URL_IN_MARKUP as URL } from './url.js';

const either = (choices: readonly string[]): string => `(?:${choices.join('|')})`;
const typesWithUrl = (needsUrl: boolean) => actionTypeSpellings.filter((type) => actionTypeNeedsUrl(normaliseActionType(type)!) === needsUrl);

/** Text, where the `elements` may appear, as the unrolled loop `text (element text)*`. */
const textWith = (...elements: string[]): string => `[^<&]*(?:${either(elements)}[^<&]*)*`;

const REFERENCE = String.raw`&(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});`;
const BREAK = '<br/>';
/** `<b>…</b>` and the like, the name captured as group number `group` so that the end tag can repeat it. */
const formatting = (group: number, content: string) => `<(${formattingElementNames.join('|')})>${content}</\\${group}>`;
/** What links, actions and formatting hold: text, breaks, and formatting that holds text and breaks. */
const inline = (group: number) => textWith(REFERENCE, BREAK, formatting(group, textWith(REFERENCE, BREAK)));
const ACTION_ATTRIBUTES =
  String.raw` id="[A-Za-z0-9_.:-]{1,${MAX_ACTION_ID_LENGTH}}"` +
  String.raw` (?:type="${either(typesWithUrl(false))}"(?: url="${URL}")?|type="${either(typesWithUrl(true))}" url="${URL}")` +
  String.raw`(?: desktopType="${either(desktopTypes)}")?(?: mobileType="${either(mobileTypes)}")?(?: sendContext="(?:true|false)")?`;
const CONTENT = textWith(
  REFERENCE,
  BREAK,
  formatting(1, inline(2)),
  String.raw`<a href="${URL}">${inline(3)}</a>`,
  String.raw`<user userId="${userIdShape}">${textWith(REFERENCE)}</user>`,
  String.raw`<action${ACTION_ATTRIBUTES}>${inline(4)}</action>`,
);
const FLAT_DOCUMENT = new RegExp(String.raw`^[ \t\r\n]*<serviceml>${CONTENT}</serviceml>[ \t\r\n]*$`);

/** True only for a valid document of the flat shape above; false says nothing either way. */
export function isFlatValidDocument(source: string): boolean {
  return FLAT_DOCUMENT.test(source) && !FORBIDDEN_CHARACTER.test(source) && numericReferencesAreCharacters(source);
}

/** In a document the pattern matched, every `&#` begins a reference of one to seven digits. */
function numericReferencesAreCharacters(source: string): boolean {
  for (let at = source.indexOf('&#'); at !== -1; at = source.indexOf('&#', at + 2)) {
    const hex = source.charCodeAt(at + 2) === 0x78; /* x */
    const digitsStart = at + (hex ? 3 : 2);
    const codePoint = parseInt(source.slice(digitsStart, source.indexOf(';', digitsStart)), hex ? 16 : 10);
    if (!isXmlChar(codePoint)) return false;
  }
  return true;
}
