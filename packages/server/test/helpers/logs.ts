import type pino from 'pino';

/** One JSON log line as the server wrote it. */
export type LogLine = Record<string, any> & { level: number; msg: string };

export const logLevels = { info: 30, warn: 40, error: 50 } as const;

/**
 * Lines as they come, and a wait on them: `add(line)` wakes whoever waits, and `until(found)` resolves
 * with the first answer of `found` (given the lines so far) that is not undefined.
 */
function growingLines<T>() {
  const lines: T[] = [];
  const waiters: Array<() => void> = [];
  return {
    lines,
    add(line: T) {
      lines.push(line);
      for (const wake of waiters.splice(0)) wake();
    },
    async until<R>(found: (lines: readonly T[]) => R | undefined): Promise<R> {
      for (;;) {
        const result = found(lines);
        if (result !== undefined) return result;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

/** Takes output as it comes (a stream's chunks) and gives `onLine` each whole line, without its newline. */
export function splitLines(onLine: (line: string) => void): (chunk: string) => void {
  let partial = '';
  return (chunk) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    for (const line of parts) onLine(line);
  };
}

/** A log destination that keeps every line, for tests that check what the server said. */
export function captureLog() {
  const parsed = growingLines<LogLine>();
  const raw: string[] = [];
  const destination: pino.DestinationStream = {
    write(line: string) {
      raw.push(line);
      parsed.add(JSON.parse(line) as LogLine);
    },
  };
  return {
    destination,
    lines: parsed.lines,
    /** Everything written, as written. */
    text: () => raw.join(''),
    /** Resolves with the first line that `matches`, as soon as it is written. */
    async waitFor(matches: (line: LogLine) => boolean): Promise<LogLine> {
      return (await this.waitForCount(matches, 1))[0];
    },
    /** Resolves with the first `count` lines that `match`, as soon as they are written. */
    waitForCount(matches: (line: LogLine) => boolean, count: number): Promise<LogLine[]> {
      return this.waitUntil((all) => {
        const found = all.filter(matches);
        return found.length >= count ? found.slice(0, count) : undefined;
      });
    },
    /** Resolves with what `found` makes of the lines so far, as soon as a line makes it anything but undefined. */
    waitUntil: parsed.until,
  };
}

/** The lines a command prints (`aviary listen`'s, in process or from its stdout), with a wait for one. */
export function printedLines() {
  const printed = growingLines<string>();
  return {
    lines: printed.lines,
    print: printed.add,
    /** Takes output as it comes (a stream's chunks), a line at a time; empty lines are left out. */
    write: splitLines((line) => line !== '' && printed.add(line)),
    /** Resolves with the first line that matches `pattern`, as soon as it is printed. */
    waitFor: (pattern: RegExp): Promise<string> => printed.until((lines) => lines.find((line) => pattern.test(line))),
  };
}
