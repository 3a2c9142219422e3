/** What the queue needs of a message: which, where to, and its place in the order the person wrote. */
export interface Queued {
  id: string;
  chat: string;
  order: number;
}

/**
 * The messages of a chat held back after the server answered "too fast" (429): none is dropped. They go
 * again one at a time, in the order the person wrote them, once the wait the server named is over; a
 * message written to that chat meanwhile waits its turn behind them.
 */
export class HeldMessages<T extends Queued> {
  private readonly queues = new Map<string, T[]>();
  /** Per chat, the message let go and not settled yet: the next goes when it settles. */
  private readonly releasing = new Map<string, string>();
  /** Chats whose wait is running. */
  private readonly waiting = new Set<string>();

  constructor(
    private readonly send: (message: T) => void,
    private readonly after: (ms: number, then: () => void) => void,
  ) {}

  /** Whether a new message to `chat` must wait its turn. */
  holds(chat: string): boolean {
    return this.waiting.has(chat) || this.releasing.has(chat);
  }

  /** A message that waits its turn (written while its chat is held). */
  enqueue(message: T): void {
    const queue = this.queues.get(message.chat) ?? [];
    queue.push(message);
    queue.sort((a, b) => a.order - b.order);
    this.queues.set(message.chat, queue);
  }

  /** The server said `message` came too fast: it waits `ms` with the rest of its chat, then they go in order. */
  tooFast(message: T, ms: number): void {
    this.enqueue(message);
    if (this.releasing.get(message.chat) === message.id) this.releasing.delete(message.chat);
    if (this.holds(message.chat)) return;
    this.waiting.add(message.chat);
    this.after(ms, () => this.release(message.chat));
  }

  /** `message` is done with (stored, refused or cancelled): out of the queue, and the next of its chat goes. */
  settled(message: T): void {
    const queue = this.queues.get(message.chat);
    const at = queue?.findIndex((queued) => queued.id === message.id) ?? -1;
    if (at >= 0) queue!.splice(at, 1);
    if (this.releasing.get(message.chat) === message.id) this.release(message.chat);
  }

  private release(chat: string): void {
    this.waiting.delete(chat);
    const next = this.queues.get(chat)?.shift();
    if (!next) {
      this.releasing.delete(chat);
      this.queues.delete(chat);
      return;
    }
    this.releasing.set(chat, next.id);
    this.send(next);
  }
}
