// BENCHMARKS.md is written by several benches, each owning one section: from its heading to the next `## `
// heading. A bench replaces its own section and leaves the others (hand-written ones included) as they are.
import { readFileSync, writeFileSync } from 'node:fs';

const FILE = new URL('../BENCHMARKS.md', import.meta.url);

/** Replaces the section that starts with `lines[0]` (its heading), or adds it at the end. */
export function writeSection(lines: readonly string[]): void {
  const text = readFileSync(FILE, 'utf8');
  const heading = lines[0];
  const section = `${lines.join('\n').trimEnd()}\n`;
  const at = text.startsWith(heading) ? 0 : text.indexOf(`\n${heading}\n`) + 1;
  if (at <= 0 && !text.startsWith(heading)) {
    writeFileSync(FILE, `${text.trimEnd()}\n\n${section}`);
    return;
  }
  const after = text.indexOf('\n## ', at + heading.length);
  writeFileSync(FILE, `${text.slice(0, at)}${section}${after < 0 ? '' : text.slice(after)}`);
}
