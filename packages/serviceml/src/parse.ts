/**
 * ServiceML parsing: tokens (tokenizer.ts) → a checked tree. Syntax and structure errors stop the
 * parse (nothing after them can be read reliably); element and attribute problems are collected, so
 * an author sees every bad attribute at once. The parser is iterative, so no input can exhaust the stack.
 */

import { abbreviate, formatCount, positionAt, utf8ByteLength } from './characters.js';
import { describeValue } from './json-fields.js';
import { isFlatValidDocument } from './quick-accept.js';
import { buildElement, isInteractiveElement, readElementHead, type ElementHead, type ProblemSink } from './schema.js';
import { failAt, ServiceMLSyntaxError } from './syntax-error.js';
import { Scanner, type RawAttribute } from './tokenizer.js';
import type { Problem, ServiceMLCheck, ServiceMLNode, ServiceMLResult } from './types.js';

export const MAX_DOCUMENT_BYTES = 16 * 1024;
/** Counting the <serviceml> root as depth 1. */
export const MAX_NESTING_DEPTH = 32;
/** Enough to fix a document in one round; more would only bloat the error response. */
const MAX_PROBLEMS = 20;

/**
 * Parses and validates a ServiceML document (docs/reference/serviceml.md): its tree, or every problem found. Takes a
 * value straight from an API request, which may not even be a string. Never throws.
 */
export function parseServiceML(source: unknown): ServiceMLResult {
  return check(source, true) as ServiceMLResult;
}

/**
 * The same checks as parseServiceML, with the same problems, for callers that store the document as
 * given and need no tree (chat.sendMessage). A flat document (quick-accept.ts) is accepted by one
 * pattern match; any other is walked without building nodes or decoding text.
 */
export function validateServiceML(source: unknown): ServiceMLCheck {
  return check(source, false);
}

function check(source: unknown, buildTree: boolean): ServiceMLResult | ServiceMLCheck {
  if (typeof source !== 'string') {
    return { ok: false, problems: [{ line: 1, column: 1, message: `ServiceML must be a string; got ${describeValue(source)}` }] };
  }
  // A UTF-16 unit takes at most 3 UTF-8 bytes, so a short document is within the limit without counting.
  if (source.length * 3 > MAX_DOCUMENT_BYTES) {
    const size = utf8ByteLength(source);
    if (size > MAX_DOCUMENT_BYTES) {
      const message = `ServiceML document is ${formatCount(size)} bytes; the limit is ${formatCount(MAX_DOCUMENT_BYTES)}`;
      return { ok: false, problems: [{ line: 1, column: 1, message }] };
    }
  }
  if (!buildTree && isFlatValidDocument(source)) return { ok: true };
  const builder = new TreeBuilder(source, buildTree);
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
  /** The outermost open link or action, this element included; kept so nesting is checked without a search. */
  interactiveAncestor: string | undefined;
}

class TreeBuilder implements ProblemSink {
  private readonly problems: { index: number; message: string }[] = [];
  /** Every problem reported, those past MAX_PROBLEMS included. */
  reported = 0;
  private readonly stack: OpenElement[] = [];
  private rootChildren: ServiceMLNode[] | undefined;
  private rootSeen = false;

  /** Without a tree, elements share this array and nothing is ever added to it. */
  private static readonly NO_CHILDREN: ServiceMLNode[] = [];

  /** `buildTree` false: check only, building no nodes and decoding no text (see validateServiceML). */
  constructor(
    private readonly source: string,
    private readonly buildTree: boolean,
  ) {}

  report(index: number, message: string): void {
    this.reported++;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ index, message });
  }

  run(): void {
    const scanner = new Scanner(this.source, this.buildTree);
    while (!scanner.atEnd()) {
      const kind = scanner.next();
      if (kind === 'text') this.text(scanner.start, scanner.text);
      else if (kind === 'start') this.startTag(scanner.name, scanner.start, scanner.attributes, scanner.selfClosing);
      else this.endTag(scanner.name, scanner.start);
      if (this.problems.length >= MAX_PROBLEMS) return;
    }
    this.finish();
  }

  result(): ServiceMLResult | ServiceMLCheck {
    if (this.problems.length > 0 || this.rootChildren === undefined) {
      // Collected problems arrive grouped by kind within a tag; authors read them in document order.
      const inOrder = [...this.problems].sort((a, b) => a.index - b.index);
      const problems: Problem[] = inOrder.map(({ index, message }) => ({ ...positionAt(this.source, index), message }));
      return { ok: false, problems };
    }
    return this.buildTree ? { ok: true, ast: { type: 'root', children: this.rootChildren } } : { ok: true };
  }

  /** The innermost open element, undefined outside the root. */
  private top(): OpenElement | undefined {
    const depth = this.stack.length;
    // Checked rather than reading stack[-1], which V8 treats as a lookup of the property "-1".
    return depth === 0 ? undefined : this.stack[depth - 1];
  }

  private text(start: number, value: string): void {
    const parent = this.top();
    if (parent === undefined) {
      let visible = start;
      while (' \t\r\n'.includes(this.source[visible] ?? '<')) visible++;
      if (visible >= this.source.length || this.source[visible] === '<') return;
      this.fail(
        visible,
        this.rootSeen
          ? 'text after </serviceml>; a document is a single <serviceml> element'
          : 'text before <serviceml>; a document is a single <serviceml> element with only whitespace around it',
      );
    }
    if (parent.name === 'br') this.report(start, '<br/> must be empty');
    if (this.buildTree) parent.children.push({ type: 'text', value });
  }

  private startTag(name: string, start: number, attributes: readonly RawAttribute[], selfClosing: boolean): void {
    const parent = this.top();
    if (parent === undefined) {
      if (this.rootSeen) this.fail(start, `a document has one <serviceml> root; found <${abbreviate(name)}> after </serviceml>`);
      if (name !== 'serviceml') this.fail(start, `the document must start with <serviceml>; found <${abbreviate(name)}>`);
      for (const attribute of attributes) {
        this.report(attribute.start, `<serviceml> takes no attributes; remove ${abbreviate(attribute.name)}`);
      }
      this.rootSeen = true;
    } else {
      const depth = this.stack.length + 1;
      if (depth > MAX_NESTING_DEPTH) this.fail(start, `elements are nested ${depth} deep here; the limit is ${MAX_NESTING_DEPTH}`);
      this.checkPlacement(name, start, parent);
    }
    const head = parent === undefined || name === 'serviceml' ? undefined : readElementHead(name, attributes, start, this);
    const interactiveAncestor = parent?.interactiveAncestor ?? (isInteractiveElement(name) ? name : undefined);
    const children = this.buildTree ? [] : TreeBuilder.NO_CHILDREN;
    this.stack.push({ name, start, head, children, interactiveAncestor });
    if (selfClosing) this.close();
  }

  /** Rules about where an element may appear; they keep the rendered HTML well-formed. */
  private checkPlacement(name: string, start: number, parent: OpenElement): void {
    if (name === 'serviceml') this.report(start, '<serviceml> can only be the root element');
    if (parent.name === 'br') this.report(start, '<br/> must be empty');
    if (parent.name === 'user') {
      this.report(start, `<user> may only contain text (the name shown when the user is unknown); found <${abbreviate(name)}>`);
    }
    if (parent.interactiveAncestor !== undefined && isInteractiveElement(name)) {
      this.report(start, `<${abbreviate(name)}> cannot be inside <${parent.interactiveAncestor}>; links and actions cannot be nested`);
    }
  }

  private endTag(tagName: string, start: number): void {
    const name = abbreviate(tagName);
    const open = this.top();
    if (open === undefined) {
      this.fail(start, this.rootSeen ? `</${name}> comes after the end of the document` : `</${name}> has no matching start tag`);
    }
    if (open.name === tagName) return this.close();
    if (open.name === 'br') this.fail(open.start, '<br> is never closed; write <br/>');
    const opened = this.stack.findLast((element) => element.name === tagName);
    const openAt = `<${abbreviate(open.name)}> (opened at line ${this.where(open.start)})`;
    if (opened === undefined) this.fail(start, `</${name}> has no matching start tag; the open element is ${openAt}`);
    this.fail(
      start,
      `</${name}> closes <${name}> from line ${this.where(opened.start)}, but ${openAt} is still open; close tags in reverse order`,
    );
  }

  private close(): void {
    const element = this.stack.pop()!;
    const parent = this.top();
    if (parent === undefined) this.rootChildren = element.children;
    else if (element.head !== undefined && this.buildTree) parent.children.push(buildElement(element.head, element.children));
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
    return failAt(index, message);
  }
}
