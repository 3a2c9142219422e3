/**
 * Reads a stream of chunks as a parser wants it: exactly n bytes at a time when a header must be read
 * whole, or n bytes passed on as they come. Holds only what was asked for.
 */
export class ByteReader {
  private held: Buffer[] = [];
  private heldLength = 0;
  private ended = false;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  /** Whether n bytes are held (reading more as needed); false when the stream ended before. */
  async fill(n: number): Promise<boolean> {
    while (this.heldLength < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else {
        this.held.push(next.value);
        this.heldLength += next.value.length;
      }
    }
    return this.heldLength >= n;
  }

  /** The first n held bytes, left held (call fill first). */
  peek(n: number): Buffer {
    if (this.held.length > 1) this.held = [Buffer.concat(this.held, this.heldLength)];
    return this.held[0].subarray(0, n);
  }

  /** The first n held bytes, no longer held (call fill first); the caller may change them in place. */
  take(n: number): Buffer {
    const bytes = this.peek(n);
    this.held[0] = this.held[0].subarray(n);
    this.heldLength -= n;
    return bytes;
  }

  /** The next n bytes (or fewer, if the stream ends first), as they come. */
  async *pass(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0 && (await this.fill(1))) {
      const piece = this.take(Math.min(left, this.heldLength));
      left -= piece.length;
      yield piece;
    }
  }

  /** Everything left, as it comes. */
  async *rest(): AsyncGenerator<Buffer> {
    if (this.heldLength > 0) yield this.take(this.heldLength);
    for (;;) {
      const next = await this.source.next();
      if (next.done) return;
      yield next.value;
    }
  }
}
