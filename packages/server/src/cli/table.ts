/**
 * A readable table for a person at a terminal: a header, one row per line, columns padded to their
 * widest cell. Scripts use --json instead; this layout may change.
 */
export function formatTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, empty: string): string {
  if (rows.length === 0) return empty;
  const cells = [headers, ...rows].map((row) => row.map(oneLine));
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
  return cells.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n');
}

/** A cell on one line, cut to a width a terminal shows: names and errors are whatever someone typed. */
function oneLine(value: string): string {
  const flat = value.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

/** A time in the store (milliseconds) as an ISO string, to the second. */
export const isoTime = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));
