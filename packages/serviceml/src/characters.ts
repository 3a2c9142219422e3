/** Character- and string-level helpers shared by the tokenizer, the URL check and the attachment limits. */

/** UTF-8 size of a JS string; an unpaired surrogate counts 3 bytes, as TextEncoder would encode U+FFFD. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export const isDigit = (unit: number): boolean => unit >= 0x30 && unit <= 0x39;
export const isAsciiLetter = (unit: number): boolean => (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x41 && unit <= 0x5a);
export const isHexDigit = (unit: number): boolean => isDigit(unit) || (unit >= 0x61 && unit <= 0x66) || (unit >= 0x41 && unit <= 0x46);

export const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
export const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * XML 1.0 `Char`: ServiceML follows XML here so that NUL and other C0 controls never reach a renderer,
 * whether they are written raw or as a character reference.
 */
export function isXmlChar(codePoint: number): boolean {
  if (codePoint === 0x9 || codePoint === 0xa || codePoint === 0xd) return true;
  if (codePoint < 0x20) return false;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return false;
  if (codePoint === 0xfffe || codePoint === 0xffff) return false;
  return codePoint <= 0x10ffff;
}

/**
 * What XML 1.0 forbids in text and attribute values: C0 controls other than tab, LF and CR, U+FFFE,
 * U+FFFF, and surrogates that are not part of a pair. One search over the whole document finds the
 * first (only the first matters: the scan stops there), so no character is tested one by one.
 */
export const FORBIDDEN_CHARACTER = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `U+0009`: how messages name a character that may not be printable. */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Formats 17000 as "17,000" without depending on the runtime's locale data. */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** 1-based line and column (in code points) of a UTF-16 index; only called when reporting a problem. */
export function positionAt(source: string, index: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  for (let i = 0; i < index && i < source.length; i++) {
    const unit = source.charCodeAt(i);
    if (unit === 0x0d) {
      if (source.charCodeAt(i + 1) === 0x0a) i++;
      line++;
      column = 1;
    } else if (unit === 0x0a) {
      line++;
      column = 1;
    } else {
      if (isHighSurrogate(unit) && isLowSurrogate(source.charCodeAt(i + 1)) && i + 1 < index) i++;
      column++;
    }
  }
  return { line, column };
}

/**
 * A string built by concatenation is a rope until something flattens it, and regular expressions run
 * about twice as slowly on one (the URL check runs on decoded attribute values). Converting it to a
 * number makes V8 flatten it in place; the number itself is of no interest.
 */
export function flattened(text: string): string {
  void Number(text);
  return text;
}

/** Keeps messages short when they quote something the author wrote (a 10 KB element name, say). */
export function abbreviate(text: string, maxLength = 40): string {
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}
