import type pino from 'pino';

/** One JSON log line as the server wrote it. */
export type LogLine = Record<string, any> & { level: number; msg: string };

export const logLevels = { info: 30, warn: 40, error: 50 } as const;

/** A log destination that keeps every line, for tests that check what the server said. */
export function captureLog() {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const waiters: Array<() => void> = [];
  const destination: pino.DestinationStream = {
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line) as LogLine);
      for (const wake of waiters.splice(0)) wake();
    },
  };
  return {
    destination,
    lines,
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
    async waitUntil<T>(found: (lines: readonly LogLine[]) => T | undefined): Promise<T> {
      for (;;) {
        const result = found(lines);
        if (result !== undefined) return result;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

/** The lines a command prints (`aviary listen`'s, in process or from its stdout), with a wait for one. */
export function printedLines() {
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  let partial = '';
  const print = (line: string) => {
    lines.push(line);
    for (const wake of waiters.splice(0)) wake();
  };
  return {
    lines,
    print,
    /** Takes output as it comes (a stream's chunks), a line at a time. */
    write(chunk: string) {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop()!;
      for (const line of parts) if (line !== '') print(line);
    },
    /** Resolves with the first line that matches `pattern`, as soon as it is printed. */
    async waitFor(pattern: RegExp): Promise<string> {
      for (;;) {
        const found = lines.find((line) => pattern.test(line));
        if (found !== undefined) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}
