/** What EntryOrder needs of an entry: its position. */
export interface Positioned {
  seq: number;
}

/**
 * The order in which one connection handles its team's entries, without I/O: each position once, in
 * increasing order, from two sources that overlap. A connection first replays what it missed from the
 * store while its team's feed already hands it live entries; those are held until the replay is done,
 * then handled, minus what the replay already covered.
 */
export class EntryOrder<E extends Positioned> {
  private held: E[] | undefined = [];
  private stopped = false;

  constructor(
    /** The last position handled (the client's cursor, or where a fresh stream starts). */
    private handled: number,
    private readonly handle: (entry: E) => void,
    /** Entries that may be held during the replay; past that, the client is too far behind. */
    private readonly maxHeld: number,
  ) {}

  get position(): number {
    return this.handled;
  }

  get replaying(): boolean {
    return this.held !== undefined;
  }

  /** A live entry. Returns false when too many are held: the connection must resync. */
  fromFeed(entry: E): boolean {
    if (this.held === undefined) {
      this.take(entry);
      return true;
    }
    this.held.push(entry);
    return this.held.length <= this.maxHeld;
  }

  /** An entry read by the replay, in position order. */
  fromReplay(entry: E): void {
    this.take(entry);
  }

  /** The replay is done: the held entries follow, and from now on live entries are handled at once. */
  goLive(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const entry of held) this.take(entry);
  }

  /** Nothing more will be handled (the connection closed). */
  stop(): void {
    this.held = undefined;
    this.stopped = true;
  }

  private take(entry: E): void {
    if (this.stopped || entry.seq <= this.handled) return;
    this.handled = entry.seq;
    this.handle(entry);
  }
}
