import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { TransferRefusal } from './refusal.js';

/**
 * A JSON-lines file written with backpressure: `write` waits for the stream to drain whenever its buffer
 * is over the high-water mark, so what is held in memory is one batch of rows, not the file.
 */
export class JsonLinesWriter {
  readonly #stream: WriteStream;
  #count = 0;
  /** The most bytes the stream held unwritten after a write (for the export's bounded-memory test). */
  maxBuffered = 0;

  constructor(readonly path: string) {
    this.#stream = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  }

  get count(): number {
    return this.#count;
  }

  async write(record: object): Promise<void> {
    const ready = this.#stream.write(`${JSON.stringify(record)}\n`);
    this.#count++;
    this.maxBuffered = Math.max(this.maxBuffered, this.#stream.writableLength);
    if (!ready) await once(this.#stream, 'drain');
  }

  async close(): Promise<void> {
    this.#stream.end();
    await once(this.#stream, 'finish');
  }

  /** Closes after a failure, without waiting on a stream that may be broken. */
  destroy(): void {
    this.#stream.destroy();
  }
}

/** A record of a JSON-lines file, with its line number for messages that point at it. */
export interface Line {
  line: number;
  value: unknown;
}

/**
 * The records of a JSON-lines file, read as they are consumed (the read stream pauses while the consumer
 * works). A line that is not JSON stops the reading with the file and line number.
 */
export async function* readJsonLines(path: string): AsyncGenerator<Line> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new TransferRefusal('InvalidOption', `${path}:${line} is not JSON: ${(error as Error).message}`);
    }
    yield { line, value };
  }
}

/** Groups an async sequence into arrays of at most `size`. */
export async function* inGroups<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let group: T[] = [];
  for await (const item of items) {
    group.push(item);
    if (group.length === size) {
      yield group;
      group = [];
    }
  }
  if (group.length > 0) yield group;
}
