/**
 * The parser must return a result, never throw, whatever string it is given; and validateServiceML,
 * which checks without building a tree, must always agree with it.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseServiceML, serializeServiceML, validateServiceML, type ServiceMLResult } from '../src/index.js';
import { isFlatValidDocument } from '../src/quick-accept.js';
import { flatServiceMLTreeArbitrary, serviceMLTreeArbitrary } from './arbitraries.js';

function expectWellFormedResult(source: string): void {
  let result: ServiceMLResult | undefined;
  expect(() => (result = parseServiceML(source))).not.toThrow();
  if (result === undefined) return;
  // The send path's tree-less check must reach the same verdict, with the same problems; its
  // one-pattern fast path may only ever accept what the parser accepts.
  expect(validateServiceML(source)).toEqual(result.ok ? { ok: true } : result);
  if (isFlatValidDocument(source)) expect(result.ok).toBe(true);
  if (result.ok) {
    // Whatever was accepted must survive a round trip unchanged.
    const again = parseServiceML(serializeServiceML(result.ast));
    expect(again).toEqual(result);
  } else {
    expect(result.problems.length).toBeGreaterThan(0);
    for (const problem of result.problems) {
      expect(problem.line).toBeGreaterThanOrEqual(1);
      expect(problem.column).toBeGreaterThanOrEqual(1);
      expect(problem.message).not.toBe('');
      expect(problem.message).not.toMatch(/failed unexpectedly/);
    }
  }
}

/** Fragments that steer random documents into every branch of the tokenizer. */
const markupPiece = fc.constantFrom(
  '<serviceml>', '</serviceml>', '<serviceml/>', '<b>', '</b>', '<i>', '</i>', '<br/>', '<br>', '</br>',
  '<a href="https://x.org">', '<a href="javascript:x">', '</a>', '<user userId="u:abcdefghijklmnop">', '</user>',
  '<action id="a" type="sendEvent">', '<action id="a" type="openWidget">', '</action>', '<blink>', '<',
  '>', '/>', '&', '&amp;', '&#', '&#x', '&#x6A;', '&#0;', ';', '"', "'", '=', ' ', '\n', '\r', '<!--', '-->',
  '<![CDATA[', ']]>', '<?', '?>', '<!DOCTYPE', 'x', 'é', '😀', '\uD800', '\u0000',
);

const mutation = fc.record({
  at: fc.nat(),
  remove: fc.nat({ max: 4 }),
  insert: fc.oneof(fc.string({ unit: 'binary', maxLength: 3 }), markupPiece),
});

function mutate(source: string, edits: readonly { at: number; remove: number; insert: string }[]): string {
  return edits.reduce((text, { at, remove, insert }) => {
    const index = text.length === 0 ? 0 : at % (text.length + 1);
    return text.slice(0, index) + insert + text.slice(index + remove);
  }, source);
}

describe('fuzz: parseServiceML never throws', () => {
  it('on 3,000 arbitrary Unicode strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), expectWellFormedResult), { numRuns: 3_000 });
  });

  it('on 2,000 arbitrary UTF-16 strings, lone surrogates included', () => {
    const utf16Unit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
    fc.assert(fc.property(fc.string({ unit: utf16Unit, maxLength: 100 }), expectWellFormedResult), { numRuns: 2_000 });
  });

  it('on 3,000 documents assembled from markup fragments', () => {
    fc.assert(fc.property(fc.array(markupPiece, { maxLength: 40 }).map((pieces) => pieces.join('')), expectWellFormedResult), { numRuns: 3_000 });
  });

  it('on 3,000 mutated valid documents', () => {
    fc.assert(
      fc.property(serviceMLTreeArbitrary, fc.array(mutation, { minLength: 1, maxLength: 4 }), (tree, edits) => {
        expectWellFormedResult(mutate(serializeServiceML(tree), edits));
      }),
      { numRuns: 3_000 },
    );
  });

  it('on 3,000 mutated flat documents, the shape validateServiceML matches with one pattern', () => {
    fc.assert(
      fc.property(flatServiceMLTreeArbitrary, fc.array(mutation, { minLength: 1, maxLength: 4 }), (tree, edits) => {
        expectWellFormedResult(mutate(serializeServiceML(tree), edits));
      }),
      { numRuns: 3_000 },
    );
  });

  it('on very deep, very long and very repetitive input', () => {
    for (const source of [
      '<b>'.repeat(100_000),
      `<serviceml>${'<b>'.repeat(5_000)}`,
      `<serviceml>${'&amp;'.repeat(3_000)}</serviceml>`,
      `<serviceml><a href="${'x'.repeat(15_000)}">x</a></serviceml>`,
      `<serviceml>${'<blink/>'.repeat(2_000)}</serviceml>`,
      `<serviceml><${'a'.repeat(16_000)}/></serviceml>`,
    ]) {
      expectWellFormedResult(source);
    }
  });
});
