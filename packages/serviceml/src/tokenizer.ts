/**
 * ServiceML tokenizer, hand-written rather than built on htmlparser2's XML mode. htmlparser2 is made
 * to recover: it accepts unquoted and valueless attributes, passes unknown entities through, closes
 * tags implicitly and reports no syntax errors at all. Every one of those recoveries would have to be
 * detected again from its callbacks, while here each is simply a rejection with an exact position.
 * The grammar is a small strict subset of XML 1.0: elements, attributes in quotes, text and the five
 * XML entities plus numeric references. Anything else (comments, CDATA, DOCTYPE, processing
 * instructions) is reported as a problem naming what to write instead.
 */

import { abbreviate, codePointLabel, isHighSurrogate, isLowSurrogate, isXmlChar } from './characters.js';

export interface RawAttribute {
  name: string;
  /** References decoded; no whitespace normalisation, so a tab stays visible to the URL check. */
  value: string;
  /** UTF-16 index of the attribute's name in the source. */
  start: number;
}

export type Token =
  | { kind: 'text'; value: string; start: number }
  | { kind: 'start'; name: string; attributes: RawAttribute[]; selfClosing: boolean; start: number }
  | { kind: 'end'; name: string; start: number };

/** A syntax error: the document cannot be read past `index`. */
export class ServiceMLSyntaxError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

const NAMED_REFERENCE = /&([A-Za-z][A-Za-z0-9]*);/y;
const DECIMAL_REFERENCE = /&#([0-9]+);/y;
const HEX_REFERENCE = /&#x([0-9A-Fa-f]+);/y;
const XML_ENTITIES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);

function isSpace(char: string | undefined): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}

function isNameStart(unit: number): boolean {
  return (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x41 && unit <= 0x5a) || unit === 0x5f;
}

/** Name characters: letters, digits, `_`, `.`, `:`, `-`. */
function isNameChar(unit: number): boolean {
  return isNameStart(unit) || (unit >= 0x30 && unit <= 0x3a) || unit === 0x2e || unit === 0x2d;
}

export function* tokenize(source: string): Generator<Token> {
  const scanner = new Scanner(source);
  while (!scanner.atEnd()) yield scanner.next();
}

class Scanner {
  private pos = 0;

  constructor(private readonly source: string) {}

  atEnd(): boolean {
    return this.pos >= this.source.length;
  }

  next(): Token {
    const char = this.source[this.pos];
    if (char !== '<') return this.readText();
    const following = this.source[this.pos + 1];
    if (following === '!' || following === '?') this.rejectDeclaration(this.pos);
    if (following === '/') return this.readEndTag();
    if (this.peekName(this.pos + 1) === undefined) this.fail(this.pos, 'a raw < must be written as &lt;');
    return this.readStartTag();
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

  private readText(): Token {
    const start = this.pos;
    let value = '';
    let chunkStart = this.pos;
    while (this.pos < this.source.length) {
      const char = this.source[this.pos];
      if (char === '<') break;
      if (char === '&') {
        value += this.source.slice(chunkStart, this.pos) + this.readReference();
        chunkStart = this.pos;
      } else {
        this.pos += this.checkedCharWidth(this.pos);
      }
    }
    return { kind: 'text', value: value + this.source.slice(chunkStart, this.pos), start };
  }

  private readStartTag(): Token {
    const start = this.pos;
    this.pos++;
    const name = this.readName();
    const attributes: RawAttribute[] = [];
    for (;;) {
      const hadSpace = this.skipSpace();
      const char = this.source[this.pos];
      if (char === undefined) this.fail(start, `the <${abbreviate(name)}> tag is not closed; end it with > or />`);
      if (char === '>') {
        this.pos++;
        return { kind: 'start', name, attributes, selfClosing: false, start };
      }
      if (char === '/') {
        if (this.source[this.pos + 1] !== '>') this.fail(this.pos, `expected /> to end the <${abbreviate(name)}> tag`);
        this.pos += 2;
        return { kind: 'start', name, attributes, selfClosing: true, start };
      }
      attributes.push(this.readAttribute(name, hadSpace, attributes));
    }
  }

  private readAttribute(tagName: string, hadSpace: boolean, earlier: readonly RawAttribute[]): RawAttribute {
    const start = this.pos;
    const tag = `<${abbreviate(tagName)}>`;
    const name = this.peekName(start);
    if (name === undefined) {
      this.fail(start, `unexpected ${this.describeCharAt(start)} in the ${tag} tag; attributes are written name="value"`);
    }
    const shown = abbreviate(name);
    if (!hadSpace) this.fail(start, `put a space before the attribute ${shown} in the ${tag} tag`);
    this.pos += name.length;
    this.skipSpace();
    if (this.source[this.pos] !== '=') this.fail(start, `the attribute ${shown} of ${tag} has no value; write ${shown}="…"`);
    this.pos++;
    this.skipSpace();
    const quote = this.source[this.pos];
    if (quote !== '"' && quote !== "'") {
      this.fail(this.pos, `the value of the attribute ${shown} must be in double or single quotes`);
    }
    this.pos++;
    const value = this.readAttributeValue(quote, start, shown);
    if (earlier.some((attribute) => attribute.name === name)) {
      this.fail(start, `the attribute ${shown} appears twice in the ${tag} tag; give it once`);
    }
    return { name, value, start };
  }

  private readAttributeValue(quote: string, attributeStart: number, shownName: string): string {
    let value = '';
    let chunkStart = this.pos;
    for (;;) {
      const char = this.source[this.pos];
      if (char === undefined) this.fail(attributeStart, `the value of the attribute ${shownName} is never closed; add the closing ${quote}`);
      if (char === quote) break;
      if (char === '<') this.fail(this.pos, 'a raw < is not allowed in an attribute value; write &lt;');
      if (char === '&') {
        value += this.source.slice(chunkStart, this.pos) + this.readReference();
        chunkStart = this.pos;
      } else {
        this.pos += this.checkedCharWidth(this.pos);
      }
    }
    value += this.source.slice(chunkStart, this.pos);
    this.pos++;
    return value;
  }

  private readEndTag(): Token {
    const start = this.pos;
    this.pos += 2;
    if (this.peekName(this.pos) === undefined) {
      this.fail(start, 'expected an element name after "</"; a raw < must be written as &lt;');
    }
    const name = this.readName();
    this.skipSpace();
    if (this.source[this.pos] !== '>') {
      this.fail(this.pos, `expected > to end </${abbreviate(name)}>; got ${this.describeCharAt(this.pos)}`);
    }
    this.pos++;
    return { kind: 'end', name, start };
  }

  /** Decodes the reference at `pos` (an `&`) and moves past it. */
  private readReference(): string {
    const start = this.pos;
    const named = this.matchAt(NAMED_REFERENCE);
    if (named) {
      const replacement = XML_ENTITIES.get(named[1]!);
      if (replacement === undefined) {
        this.fail(
          start,
          `&${abbreviate(named[1]!)}; is not a ServiceML entity; use &amp; &lt; &gt; &quot; &apos; or a numeric reference such as &#160;`,
        );
      }
      this.pos += named[0].length;
      return replacement;
    }
    const numeric = this.matchAt(DECIMAL_REFERENCE) ?? this.matchAt(HEX_REFERENCE);
    if (numeric) {
      const digits = numeric[1]!.replace(/^0+(?=.)/, '');
      const radix = numeric[0].startsWith('&#x') ? 16 : 10;
      const codePoint = digits.length > 7 ? Infinity : parseInt(digits, radix);
      this.checkReferencedCodePoint(codePoint, start, abbreviate(numeric[0], 20));
      this.pos += numeric[0].length;
      return String.fromCodePoint(codePoint);
    }
    if (this.source.startsWith('&#X', start)) this.fail(start, 'write hexadecimal character references with a lowercase x, as in &#x6A;');
    if (this.source.startsWith('&#', start)) this.fail(start, 'a character reference looks like &#106; or &#x6A; and ends with ;');
    return this.fail(start, 'a raw & must be written as &amp;');
  }

  private checkReferencedCodePoint(codePoint: number, start: number, written: string): void {
    if (codePoint === 0) this.fail(start, `${written} does not name a character (code point 0 is not allowed)`);
    if (codePoint > 0x10ffff) this.fail(start, `${written} is beyond U+10FFFF, the last Unicode code point`);
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) {
      this.fail(start, `${written} names a surrogate (${codePointLabel(codePoint)}), which is not a character`);
    }
    if (!isXmlChar(codePoint)) this.fail(start, `${written} names ${codePointLabel(codePoint)}, which is not allowed in ServiceML`);
  }

  /** Width in UTF-16 units of the character at `index`, after checking that XML allows it. */
  private checkedCharWidth(index: number): number {
    const unit = this.source.charCodeAt(index);
    if (isHighSurrogate(unit) && isLowSurrogate(this.source.charCodeAt(index + 1))) return 2;
    if (isHighSurrogate(unit) || isLowSurrogate(unit)) {
      this.fail(index, `an unpaired surrogate (${codePointLabel(unit)}) is not allowed; the text is not valid Unicode`);
    }
    if (!isXmlChar(unit)) this.fail(index, `the character ${codePointLabel(unit)} is not allowed in ServiceML`);
    return 1;
  }

  private readName(): string {
    const name = this.peekName(this.pos) ?? '';
    this.pos += name.length;
    return name;
  }

  /** The name starting at `index`, if any: [A-Za-z_][A-Za-z0-9_.:-]*. Scanned by hand; it is the hottest path. */
  private peekName(index: number): string | undefined {
    if (!isNameStart(this.source.charCodeAt(index))) return undefined;
    let end = index + 1;
    while (isNameChar(this.source.charCodeAt(end))) end++;
    return this.source.slice(index, end);
  }

  private matchAt(pattern: RegExp): RegExpExecArray | null {
    pattern.lastIndex = this.pos;
    return pattern.exec(this.source);
  }

  /** Moves past XML whitespace; says whether there was any. */
  private skipSpace(): boolean {
    const start = this.pos;
    while (isSpace(this.source[this.pos])) this.pos++;
    return this.pos > start;
  }

  private describeCharAt(index: number): string {
    const codePoint = this.source.codePointAt(index);
    if (codePoint === undefined) return 'the end of the document';
    return codePoint > 0x20 && codePoint < 0x7f ? `"${String.fromCodePoint(codePoint)}"` : `the character ${codePointLabel(codePoint)}`;
  }

  private fail(index: number, message: string): never {
    throw new ServiceMLSyntaxError(index, message);
  }
}
