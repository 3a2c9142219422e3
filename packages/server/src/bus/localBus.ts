import type { Bus } from './bus.js';

/** The bus of a single process: a publish reaches this process's subscribers on the next microtask. */
export class LocalBus implements Bus {
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();

  publish(topic: string, payload: string): void {
    const listeners = this.listeners.get(topic);
    if (!listeners) return;
    // Asynchronous like a real broker, so that a publisher never runs subscribers inside its own call.
    queueMicrotask(() => {
      for (const listener of listeners) listener(payload);
    });
  }

  subscribe(topic: string, listener: (payload: string) => void): () => void {
    let listeners = this.listeners.get(topic);
    if (!listeners) this.listeners.set(topic, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.listeners.delete(topic);
    };
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
