import { describe, expect, it } from 'vitest';
import { nameProblem } from '../src/names.js';

describe('nameProblem', () => {
  it('accepts names in any script, with accents, emoji and inner spaces', () => {
    for (const name of ['Ada Lovelace', 'Zoë', 'José', '李小龍', 'محمد', 'Ølstue 🍺', 'a\u0301', 'R2-D2', 'ᄀ']) expect(nameProblem(name), name).toBeUndefined();
  });

  it('refuses names that show nothing once normalised: blanks, invisible and format characters, fillers, lone marks', () => {
    const invisible = ['', ' ', '\u200B', '\u2800', '\u3164', '\uFFA0', '\u115F\u1160', '\u00AD', '\u2062', '\uFEFF', '\u3000', '\u0301', '\u034F', '\u{E0041}', '\u200D\u200C', '\uFE0F'];
    for (const name of invisible) expect(nameProblem(name), JSON.stringify(name)).toMatch(/visible character/);
  });

  it('refuses line breaks, tabs and every other control character: a name is one line, in pages and in mail', () => {
    for (const control of ['\n', '\r', '\t', '\u0000', '\u001B', '\u0085', '\t\n']) {
      expect(nameProblem(`Jonas${control}Visit http://evil.example`), JSON.stringify(control)).toMatch(/one line/);
    }
  });

  it('refuses every bidirectional control, even beside visible letters', () => {
    for (const control of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C']) {
      expect(nameProblem(`Admin${control}nimda`), JSON.stringify(control)).toMatch(/bidirectional/);
    }
  });
});
