/**
 * The fast way through validateServiceML (issue #4). Most documents apps send are flat: text, and
 * elements that hold only text — `<b>Step 1</b>`, `<a href="https://…">logs</a>`, `<user …>Ada</user>`,
 * `<action id="rerun" type="sendEvent">Re-run</action>` — with `<br/>` anywhere. That shape, written
 * the usual way (attributes in double quotes, in the order of the reference, single spaces), is one
 * regular expression, and the engine checks a whole document against it in native code several
 * times faster than the tokenizer can walk it. A document it matches is valid; one it does not
 * match may still be, and the parser (parse.ts) decides, and says what is wrong if anything is.
 *
 * Why a match is always valid: each piece accepts a subset of what the parser accepts — text without
 * `<` and with `&` only in a reference; the five entities; numeric references whose code points are
 * checked below; no element inside another but `<br/>` (so no nesting rule can be broken, and
 * `<user>` holds text only); ids, types and choices of `<action>` from action.ts; user ids by the
 * schema's own pattern; URLs by url.ts's pattern for markup. Characters XML forbids are looked for
 * separately, over the whole document, by the tokenizer's own expression.
 *
 * Why it cannot be made to run long: the pattern is the unrolled loop `text (element text)*`, where
 * text and each element begin with different characters and no element holds a repeated group that
 * can match the same characters two ways, so a failed match backs out in time linear in the length.
 */

import { actionTypeNeedsUrl, actionTypeSpellings, desktopTypes, mobileTypes, normaliseActionType } from './action.js';
import { isXmlChar } from './characters.js';
import { formattingElementNames, MAX_ACTION_ID_LENGTH, USER_ID_PATTERN } from './schema.js';
import { FORBIDDEN_CHARACTER } from './tokenizer.js';
import { PLAIN_WEB_URL_IN_MARKUP as URL } from './url.js';

const either = (choices: readonly string[]): string => `(?:${choices.join('|')})`;
const typesWithUrl = (needsUrl: boolean) => actionTypeSpellings.filter((type) => actionTypeNeedsUrl(normaliseActionType(type)!) === needsUrl);

const REFERENCE = String.raw`&(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});`;
const TEXT = String.raw`[^<&]*(?:${REFERENCE}[^<&]*)*`;
const TEXT_AND_BREAKS = String.raw`[^<&]*(?:(?:${REFERENCE}|<br/>)[^<&]*)*`;
const ACTION_ATTRIBUTES =
  String.raw` id="[A-Za-z0-9_.:-]{1,${MAX_ACTION_ID_LENGTH}}"` +
  String.raw` (?:type="${either(typesWithUrl(false))}"(?: url="${URL}")?|type="${either(typesWithUrl(true))}" url="${URL}")` +
  String.raw`(?: desktopType="${either(desktopTypes)}")?(?: mobileType="${either(mobileTypes)}")?(?: sendContext="(?:true|false)")?`;
const ELEMENT = either([
  REFERENCE,
  '<br/>',
  String.raw`<(${formattingElementNames.join('|')})>${TEXT_AND_BREAKS}</\1>`,
  String.raw`<a href="${URL}">${TEXT_AND_BREAKS}</a>`,
  String.raw`<user userId="${USER_ID_PATTERN}">${TEXT}</user>`,
  String.raw`<action${ACTION_ATTRIBUTES}>${TEXT_AND_BREAKS}</action>`,
]);
const FLAT_DOCUMENT = new RegExp(String.raw`^[ \t\r\n]*<serviceml>[^<&]*(?:${ELEMENT}[^<&]*)*</serviceml>[ \t\r\n]*$`);

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
