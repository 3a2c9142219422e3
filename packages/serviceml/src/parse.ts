/**
 * ServiceML parsing: tokens (tokenizer.ts) → a checked tree. Syntax and structure errors stop the
 * parse (nothing after them can be read reliably); element and attribute problems are collected, so
 * an author sees every bad attribute at once. The parser is iterative, so no input can exhaust the stack.
 */

import { abbreviate, formatCount, positionAt, utf8ByteLength } from './characters.js';
import { describeValue } from './json-fields.js';
import { buildElement, interactiveElements, readElementHead, type ElementHead } from './schema.js';
import { ServiceMLSyntaxError, tokenize, type Token } from './tokenizer.js';
import type { Problem, ServiceMLNode, ServiceMLResult } from './types.js';

export const MAX_DOCUMENT_BYTES = 16 * 1024;
/** Counting the <serviceml> root as depth 1. */
export const MAX_NESTING_DEPTH = 32;
/** Enough to fix a document in one round; more would only bloat the error response. */
const MAX_PROBLEMS = 20;

/** Parses and validates a ServiceML document (reference §6). Never throws. */
export function parseServiceML(source: string): ServiceMLResult {
  return validateServiceML(source);
}

/** Like parseServiceML, for a value straight from an API request, which may not even be a string. */
export function validateServiceML(source: unknown): ServiceMLResult {
  if (typeof source !== 'string') {
    return { ok: false, problems: [{ line: 1, column: 1, message: `ServiceML must be a string; got ${describeValue(source)}` }] };
  }
  const size = utf8ByteLength(source);
  if (size > MAX_DOCUMENT_BYTES) {
    const message = `ServiceML document is ${formatCount(size)} bytes; the limit is ${formatCount(MAX_DOCUMENT_BYTES)}`;
    return { ok: false, problems: [{ line: 1, column: 1, message }] };
  }
  const builder = new TreeBuilder(source);
  try {
    builder.run();
  } catch (error) {
    if (error instanceof ServiceMLSyntaxError) builder.report(error.index, error.message);
    else builder.report(0, `the ServiceML parser failed unexpectedly (${String(error)}); please report this document`);
  }
  return builder.result();
}

interface OpenElement {
  name: string;
  start: number;
  /** Undefined for the root and for elements that already have a problem. */
  head: ElementHead | undefined;
  children: ServiceMLNode[];
}

class TreeBuilder {
  private readonly problems: { index: number; message: string }[] = [];
  private readonly stack: OpenElement[] = [];
  private rootChildren: ServiceMLNode[] | undefined;
  private rootSeen = false;

  constructor(private readonly source: string) {}

  report(index: number, message: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ index, message });
  }

  run(): void {
    for (const token of tokenize(this.source)) {
      if (token.kind === 'text') this.text(token);
      else if (token.kind === 'start') this.startTag(token);
      else this.endTag(token);
      if (this.problems.length >= MAX_PROBLEMS) return;
    }
    this.finish();
  }

  result(): ServiceMLResult {
    if (this.problems.length > 0 || this.rootChildren === undefined) {
      // Collected problems arrive grouped by kind within a tag; authors read them in document order.
      const inOrder = [...this.problems].sort((a, b) => a.index - b.index);
      const problems: Problem[] = inOrder.map(({ index, message }) => ({ ...positionAt(this.source, index), message }));
      return { ok: false, problems };
    }
    return { ok: true, ast: { type: 'root', children: this.rootChildren } };
  }

  private text(token: Extract<Token, { kind: 'text' }>): void {
    const parent = this.stack.at(-1);
    if (parent === undefined) {
      let visible = token.start;
      while (' \t\r\n'.includes(this.source[visible] ?? '<')) visible++;
      if (visible >= this.source.length || this.source[visible] === '<') return;
      this.fail(
        visible,
        this.rootSeen
          ? 'text after </serviceml>; a document is a single <serviceml> element'
          : 'text before <serviceml>; a document is a single <serviceml> element with only whitespace around it',
      );
    }
    if (parent.name === 'br') this.report(token.start, '<br/> must be empty');
    parent.children.push({ type: 'text', value: token.value });
  }

  private startTag(token: Extract<Token, { kind: 'start' }>): void {
    const name = abbreviate(token.name);
    const parent = this.stack.at(-1);
    if (parent === undefined) {
      if (this.rootSeen) this.fail(token.start, `a document has one <serviceml> root; found <${name}> after </serviceml>`);
      if (token.name !== 'serviceml') this.fail(token.start, `the document must start with <serviceml>; found <${name}>`);
      for (const attribute of token.attributes) {
        this.report(attribute.start, `<serviceml> takes no attributes; remove ${abbreviate(attribute.name)}`);
      }
      this.rootSeen = true;
    } else {
      const depth = this.stack.length + 1;
      if (depth > MAX_NESTING_DEPTH) this.fail(token.start, `elements are nested ${depth} deep here; the limit is ${MAX_NESTING_DEPTH}`);
      this.checkPlacement(token, parent);
    }
    const head =
      parent === undefined || token.name === 'serviceml'
        ? undefined
        : readElementHead(token.name, token.attributes, token.start, (index, message) => this.report(index, message));
    this.stack.push({ name: token.name, start: token.start, head, children: [] });
    if (token.selfClosing) this.close();
  }

  /** Rules about where an element may appear; they keep the rendered HTML well-formed. */
  private checkPlacement(token: Extract<Token, { kind: 'start' }>, parent: OpenElement): void {
    const name = abbreviate(token.name);
    if (token.name === 'serviceml') this.report(token.start, '<serviceml> can only be the root element');
    if (parent.name === 'br') this.report(token.start, '<br/> must be empty');
    if (parent.name === 'user') {
      this.report(token.start, `<user> may only contain text (the name shown when the user is unknown); found <${name}>`);
    }
    const interactiveAncestor = this.stack.find((open) => interactiveElements.includes(open.name));
    if (interactiveElements.includes(token.name) && interactiveAncestor !== undefined) {
      this.report(token.start, `<${name}> cannot be inside <${interactiveAncestor.name}>; links and actions cannot be nested`);
    }
  }

  private endTag(token: Extract<Token, { kind: 'end' }>): void {
    const name = abbreviate(token.name);
    const open = this.stack.at(-1);
    if (open === undefined) {
      this.fail(token.start, this.rootSeen ? `</${name}> comes after the end of the document` : `</${name}> has no matching start tag`);
    }
    if (open.name === token.name) return this.close();
    if (open.name === 'br') this.fail(open.start, '<br> is never closed; write <br/>');
    const opened = this.stack.findLast((element) => element.name === token.name);
    const openAt = `<${abbreviate(open.name)}> (opened at line ${this.where(open.start)})`;
    if (opened === undefined) this.fail(token.start, `</${name}> has no matching start tag; the open element is ${openAt}`);
    this.fail(
      token.start,
      `</${name}> closes <${name}> from line ${this.where(opened.start)}, but ${openAt} is still open; close tags in reverse order`,
    );
  }

  private close(): void {
    const element = this.stack.pop()!;
    const parent = this.stack.at(-1);
    if (parent === undefined) this.rootChildren = element.children;
    else if (element.head !== undefined) parent.children.push(buildElement(element.head, element.children));
  }

  private finish(): void {
    const unclosed = this.stack.at(-1);
    if (unclosed !== undefined) {
      const name = abbreviate(unclosed.name);
      this.fail(unclosed.start, `<${name}> is never closed; ${unclosed.name === 'br' ? 'write <br/>' : `add </${name}>`}`);
    }
    if (!this.rootSeen) this.fail(0, 'the document is empty; write <serviceml>…</serviceml>');
  }

  private where(index: number): string {
    const { line, column } = positionAt(this.source, index);
    return `${line}:${column}`;
  }

  private fail(index: number, message: string): never {
    throw new ServiceMLSyntaxError(index, message);
  }
}
