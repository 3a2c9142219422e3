import type { Bus } from './bus.js';

/** A subscription; an object of its own, so that one listener subscribed twice is counted twice. */
interface Subscriber {
  listener: (payload: string) => void;
}

/** The bus of a single process: a publish reaches this process's subscribers on the next microtask. */
export class LocalBus implements Bus {
  private readonly topics = new Map<string, Set<Subscriber>>();

  publish(topic: string, payload: string): void {
    const subscribers = this.topics.get(topic);
    if (!subscribers) return;
    // Asynchronous like a real broker, so that a publisher never runs subscribers inside its own call.
    queueMicrotask(() => {
      for (const { listener } of subscribers) listener(payload);
    });
  }

  subscribe(topic: string, listener: (payload: string) => void): () => void {
    let subscribers = this.topics.get(topic);
    if (!subscribers) this.topics.set(topic, (subscribers = new Set()));
    const subscriber: Subscriber = { listener };
    subscribers.add(subscriber);
    return () => {
      if (subscribers.delete(subscriber) && subscribers.size === 0 && this.topics.get(topic) === subscribers) this.topics.delete(topic);
    };
  }

  /** A subscription in memory hears the next publish as soon as it is made. */
  async whenSubscribed(): Promise<void> {}

  async close(): Promise<void> {
    this.topics.clear();
  }
}
