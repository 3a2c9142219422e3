/**
 * ServiceML tokenizer, hand-written rather than built on htmlparser2's XML mode. htmlparser2 is made
 * to recover: it accepts unquoted and valueless attributes, passes unknown entities through, closes
 * tags implicitly and reports no syntax errors at all. Every one of those recoveries would have to be
 * detected again from its callbacks, while here each is simply a rejection with an exact position.
 * The grammar is a small strict subset of XML 1.0: elements, attributes in quotes, text and the five
 * XML entities plus numeric references. Anything else (comments, CDATA, DOCTYPE, processing
 * instructions) is reported as a problem naming what to write instead.
 *
 * It runs on every chat.sendMessage that carries ServiceML, so it is written for speed (issue #4):
 * delimiters are found with indexOf, forbidden characters with one search of the whole document, and
 * runs of text are sliced whole between references, so nothing looks at one character at a time
 * except inside tags. There are no token objects (the scanner holds the current token in its fields)
 * and positions are UTF-16 offsets: line:column is only computed when a problem is reported, and
 * messages are only built on the way to a failure. No closure is created per token either: the
 * server runs under tsx, whose esbuild `keepNames` turns each closure creation into an
 * Object.defineProperty call.
 */

import { abbreviate, codePointLabel, flattened, FORBIDDEN_CHARACTER, isAsciiLetter } from './characters.js';
import { decodeReference } from './references.js';
import { failAt } from './syntax-error.js';

export interface RawAttribute {
  name: string;
  /** References decoded; no whitespace normalisation, so a tab stays visible to the URL check. */
  value: string;
  /** UTF-16 index of the attribute's name in the source. */
  start: number;
}

export type TokenKind = 'text' | 'start' | 'end';

// UTF-16 code units the scanner tests for: whitespace, quotes, and the punctuation of tags.
const [TAB, LF, CR, SPACE] = [0x09, 0x0a, 0x0d, 0x20];
const [DOUBLE_QUOTE, SINGLE_QUOTE] = [0x22, 0x27];
const [SLASH, LESS_THAN, EQUALS, GREATER_THAN, QUESTION_MARK, EXCLAMATION_MARK] = [0x2f, 0x3c, 0x3d, 0x3e, 0x3f, 0x21];

/**
 * Tags without attributes, the common case, share this array rather than allocating one each. Not
 * frozen: a frozen array has its own elements kind, which would make every loop over attributes polymorphic.
 */
const NO_ATTRIBUTES: readonly RawAttribute[] = [];

const isSpace = (unit: number): boolean => unit === SPACE || unit === TAB || unit === LF || unit === CR;
const isNameStart = (unit: number): boolean => isAsciiLetter(unit) || unit === 0x5f;
/** Name characters: letters, digits, `_`, `.`, `:`, `-`. */
const isNameChar = (unit: number): boolean => isNameStart(unit) || (unit >= 0x30 && unit <= 0x3a) || unit === 0x2e || unit === 0x2d;

function indexOrLength(source: string, search: string, from: number): number {
  const index = source.indexOf(search, from);
  return index === -1 ? source.length : index;
}

/**
 * Reads one token per `next()` call; the token's kind is returned and its details are left in the
 * fields below, valid until the following call. Throws ServiceMLSyntaxError at the first syntax error.
 */
export class Scanner {
  /** UTF-16 index where the current token starts. */
  start = 0;
  /** Element name of a start or end tag. */
  name = '';
  /** Decoded text of a text token. */
  text = '';
  /** Attributes of a start tag, in source order. */
  attributes: readonly RawAttribute[] = NO_ATTRIBUTES;
  /** Whether a start tag ended with `/>`. */
  selfClosing = false;

  private pos = 0;
  /** Index of the first forbidden character, or the length: text and values must end before it. */
  private readonly forbiddenAt: number;
  /** Cached results of indexOf for `<` and `&`, which text and values look for again and again. */
  private lessThanAt = -1;
  private ampersandAt = -1;

  /** `decodeText` false: text is checked but not kept, and `text` stays empty (see validateServiceML). */
  constructor(
    private readonly source: string,
    private readonly decodeText = true,
  ) {
    const forbidden = source.search(FORBIDDEN_CHARACTER);
    this.forbiddenAt = forbidden === -1 ? source.length : forbidden;
  }

  atEnd(): boolean {
    return this.pos >= this.source.length;
  }

  next(): TokenKind {
    const source = this.source;
    this.start = this.pos;
    if (source.charCodeAt(this.pos) !== LESS_THAN) {
      this.text = this.readText();
      return 'text';
    }
    const following = source.charCodeAt(this.pos + 1);
    if (following === EXCLAMATION_MARK || following === QUESTION_MARK) this.rejectDeclaration(this.pos);
    if (following === SLASH) {
      this.readEndTag();
      return 'end';
    }
    if (!isNameStart(following)) this.fail(this.pos, 'a raw < must be written as &lt;');
    this.readStartTag();
    return 'start';
  }

  /** `<!…>` and `<?…?>`: none is part of ServiceML; the message names what was found. */
  private rejectDeclaration(start: number): never {
    const opening = this.source.slice(start, start + 9);
    if (opening.startsWith('<!--')) this.fail(start, 'comments (<!-- … -->) are not allowed in ServiceML; remove them');
    if (opening.startsWith('<![CDATA[')) this.fail(start, 'CDATA sections are not allowed; write the text with &lt; and &amp; instead');
    if (/^<!doctype/i.test(opening)) this.fail(start, '<!DOCTYPE> is not allowed; a ServiceML document is just a <serviceml> element');
    if (opening.startsWith('<!ENTITY')) this.fail(start, 'entity declarations (<!ENTITY>) are not allowed');
    if (opening.startsWith('<!')) this.fail(start, 'declarations (<!…>) are not allowed in ServiceML');
    if (/^<\?xml\b/i.test(opening)) this.fail(start, 'the XML declaration (<?xml …?>) is not allowed; start the document with <serviceml>');
    return this.fail(start, 'processing instructions (<?…?>) are not allowed in ServiceML');
  }

  /** Text up to the next `<` or the end, references decoded. */
  private readText(): string {
    const end = this.nextLessThan(this.pos);
    const text = this.decode(this.pos, end, this.decodeText);
    this.pos = end;
    return text;
  }

  /**
   * The characters between `from` and `end` (which holds no `<`), references decoded. Whole runs
   * between references are sliced at once: indexOf finds the `&`s and the forbidden character is
   * already known, so that nothing here looks at one character at a time. With `keep` false the
   * characters are only checked, and no string is built.
   */
  private decode(from: number, end: number, keep = true): string {
    let value = '';
    let chunkStart = from;
    for (;;) {
      const ampersand = this.nextAmpersand(chunkStart);
      if (this.forbiddenAt < end && this.forbiddenAt < ampersand) this.rejectCharacter(this.forbiddenAt);
      if (ampersand >= end) break;
      const replacement = decodeReference(this.source, ampersand);
      if (keep) value += this.source.slice(chunkStart, ampersand) + replacement;
      chunkStart = this.source.indexOf(';', ampersand) + 1;
    }
    if (!keep) return '';
    return chunkStart === from ? this.source.slice(from, end) : flattened(value + this.source.slice(chunkStart, end));
  }

  /** Index of the first `<` at or after `from`, or the length. */
  private nextLessThan(from: number): number {
    if (this.lessThanAt < from) this.lessThanAt = indexOrLength(this.source, '<', from);
    return this.lessThanAt;
  }

  /** Index of the first `&` at or after `from`, or the length. */
  private nextAmpersand(from: number): number {
    if (this.ampersandAt < from) this.ampersandAt = indexOrLength(this.source, '&', from);
    return this.ampersandAt;
  }

  private readStartTag(): void {
    const source = this.source;
    const start = this.pos;
    this.pos++;
    const name = this.readName();
    let attributes = NO_ATTRIBUTES as RawAttribute[];
    for (;;) {
      const hadSpace = this.skipSpace();
      const unit = source.charCodeAt(this.pos);
      if (unit === GREATER_THAN || unit === SLASH) {
        if (unit === SLASH) {
          if (source.charCodeAt(this.pos + 1) !== GREATER_THAN) this.fail(this.pos, `expected /> to end the <${abbreviate(name)}> tag`);
          this.pos++;
        }
        this.pos++;
        this.name = name;
        this.attributes = attributes;
        this.selfClosing = unit === SLASH;
        return;
      }
      if (this.pos >= source.length) this.fail(start, `the <${abbreviate(name)}> tag is not closed; end it with > or />`);
      const attribute = this.readAttribute(name, hadSpace, attributes);
      if (attributes === NO_ATTRIBUTES) attributes = [attribute];
      else attributes.push(attribute);
    }
  }

  private readAttribute(tagName: string, hadSpace: boolean, earlier: readonly RawAttribute[]): RawAttribute {
    const source = this.source;
    const start = this.pos;
    if (!isNameStart(source.charCodeAt(start))) {
      this.fail(start, `unexpected ${this.describeCharAt(start)} in the <${abbreviate(tagName)}> tag; attributes are written name="value"`);
    }
    const name = this.readName();
    if (!hadSpace) this.fail(start, `put a space before the attribute ${abbreviate(name)} in the <${abbreviate(tagName)}> tag`);
    this.skipSpace();
    if (source.charCodeAt(this.pos) !== EQUALS) {
      const shown = abbreviate(name);
      this.fail(start, `the attribute ${shown} of <${abbreviate(tagName)}> has no value; write ${shown}="…"`);
    }
    this.pos++;
    this.skipSpace();
    const quote = source.charCodeAt(this.pos);
    if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) {
      this.fail(this.pos, `the value of the attribute ${abbreviate(name)} must be in double or single quotes`);
    }
    this.pos++;
    const value = this.readAttributeValue(quote, start, name);
    for (const attribute of earlier) {
      if (attribute.name === name) this.fail(start, `the attribute ${abbreviate(name)} appears twice in the <${abbreviate(tagName)}> tag; give it once`);
    }
    return { name, value, start };
  }

  /** The value after its opening quote, up to the matching quote, which it moves past. */
  private readAttributeValue(quote: number, attributeStart: number, name: string): string {
    const source = this.source;
    const closing = source.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", this.pos);
    const end = closing === -1 ? source.length : closing;
    // Problems are reported in document order: whatever comes first of a bad reference or character,
    // a raw <, or the end of the document.
    const lessThan = this.nextLessThan(this.pos);
    const value = this.decode(this.pos, Math.min(end, lessThan));
    if (lessThan < end) this.fail(lessThan, 'a raw < is not allowed in an attribute value; write &lt;');
    if (closing === -1) {
      this.fail(attributeStart, `the value of the attribute ${abbreviate(name)} is never closed; add the closing ${String.fromCharCode(quote)}`);
    }
    this.pos = closing + 1;
    return value;
  }

  private readEndTag(): void {
    const start = this.pos;
    this.pos += 2;
    if (!isNameStart(this.source.charCodeAt(this.pos))) {
      this.fail(start, 'expected an element name after "</"; a raw < must be written as &lt;');
    }
    const name = this.readName();
    this.skipSpace();
    if (this.source.charCodeAt(this.pos) !== GREATER_THAN) {
      this.fail(this.pos, `expected > to end </${abbreviate(name)}>; got ${this.describeCharAt(this.pos)}`);
    }
    this.pos++;
    this.name = name;
  }

  /** Reports the forbidden character at `index` (see FORBIDDEN_CHARACTER). */
  private rejectCharacter(index: number): never {
    const unit = this.source.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdfff) {
      this.fail(index, `an unpaired surrogate (${codePointLabel(unit)}) is not allowed; the text is not valid Unicode`);
    }
    return this.fail(index, `the character ${codePointLabel(unit)} is not allowed in ServiceML`);
  }

  /** The name at `pos`, [A-Za-z_][A-Za-z0-9_.:-]*, which the caller has checked starts there. */
  private readName(): string {
    const start = this.pos;
    let end = start + 1;
    while (isNameChar(this.source.charCodeAt(end))) end++;
    this.pos = end;
    return this.source.slice(start, end);
  }

  /** Moves past XML whitespace; says whether there was any. */
  private skipSpace(): boolean {
    const start = this.pos;
    while (isSpace(this.source.charCodeAt(this.pos))) this.pos++;
    return this.pos > start;
  }

  private describeCharAt(index: number): string {
    const codePoint = this.source.codePointAt(index);
    if (codePoint === undefined) return 'the end of the document';
    return codePoint > 0x20 && codePoint < 0x7f ? `"${String.fromCodePoint(codePoint)}"` : `the character ${codePointLabel(codePoint)}`;
  }

  private fail(index: number, message: string): never {
    return failAt(index, message);
  }
}
