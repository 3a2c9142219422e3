import type { Problem } from './types.js';

/** One line for an API error's description: "line 3:5: …; line 4:1: …", the first few problems. */
export function describeProblems(problems: readonly Problem[], limit = 3): string {
  const shown = problems.slice(0, limit).map(({ line, column, message }) => `line ${line}:${column}: ${message}`);
  const hidden = problems.length - shown.length;
  return hidden > 0 ? `${shown.join('; ')}; and ${hidden} more` : shown.join('; ');
}
