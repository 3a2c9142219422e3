import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliErrorCodes } from '../../src/cli/errors.js';

const errorsDoc = readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');

describe('docs/errors.md, Admin CLI', () => {
  it('lists exactly the codes the CLI fails with', () => {
    const section = errorsDoc.split(/^## /m).find((part) => part.startsWith('Admin CLI\n')) ?? '';
    const documented = [...section.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual([...cliErrorCodes].sort());
  });
});
