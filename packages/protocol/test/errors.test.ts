import { readFileSync } from 'node:fs';
import { AviaryApiError } from '@aviary/sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { buildOpenApiDocument, errorCodes, errorRegistry, type ErrorBody, type ErrorCode, type ErrorContext } from '../src/index.js';

const errorsDoc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

/** The rows of the table under `## <heading>`: each row's cells, backticks removed. */
function tableUnder(markdown: string, heading: string): string[][] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .slice(1)
    .map((line) => line.slice(1, -1).split('|').map((cell) => cell.trim().replaceAll('`', '')));
}

const documented = tableUnder(errorsDoc, 'Error codes').map(([code, status, context, when]) => ({ code, status: Number(status), context, when }));

/** The fields of ErrorContext, checked against the interface by the compiler. */
const contextFields = { parameter: true, disabledBy: true, retryAfter: true, requestId: true, origin: true, teams: true } satisfies Record<keyof ErrorContext, true>;

describe('docs/errors.md, errorRegistry and the SDK agree', () => {
  it('the doc lists every code of the registry with its status, and no other code', () => {
    expect(documented.map((row) => row.code).sort()).toEqual([...errorCodes].sort());
    for (const row of documented) expect(row.status, row.code).toBe(errorRegistry[row.code as ErrorCode].status);
  });

  it('lists each code once, and says when it happens', () => {
    expect(new Set(documented.map((row) => row.code)).size).toBe(documented.length);
    for (const row of documented) expect(row.when.length, row.code).toBeGreaterThan(10);
  });

  it('names only context fields an error body can carry', () => {
    const named = documented.flatMap((row) => (row.context === '–' ? [] : [row.context.split(' ')[0]]));
    for (const field of named) expect(Object.keys(contextFields)).toContain(field);
    // The OpenAPI document describes the same error body.
    const errorSchema = buildOpenApiDocument().components.schemas.Error as { properties: Record<string, unknown> };
    expect(Object.keys(errorSchema.properties).sort()).toEqual(['description', 'error', ...Object.keys(contextFields)].sort());
  });

  it('the SDK’s AviaryApiError carries every code and its status', () => {
    for (const code of errorCodes) {
      const { status, description } = errorRegistry[code];
      const error = new AviaryApiError(status, { error: code, description });
      expect(error).toMatchObject({ code, status, name: 'AviaryApiError' });
      expect(error.message).toBe(`${code}: ${description}`);
    }
    expectTypeOf<ErrorCode>().toExtend<AviaryApiError['code']>();
    // `ErrorCode | string` is just `string`: the line above would hold for it and editors would offer no codes.
    expectTypeOf<AviaryApiError['code']>().not.toEqualTypeOf<string>();
    expectTypeOf<ErrorBody['error']>().toEqualTypeOf<ErrorCode>();
  });
});
