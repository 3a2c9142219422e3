/**
 * Messages between the server's processes: one process publishes on a topic (say, a team's stream), and
 * every process subscribed to it — this one included — hears it. Without `REDIS_URL` the server is one
 * process and the bus is in memory; with it, the bus is Redis pub/sub. Delivery is at most once: a
 * subscriber that must not miss anything (the stream) reads what it missed from the store; the bus only
 * says that there is something to read.
 */
export interface Bus {
  /** Fire and forget: a failure is logged by the bus, never thrown at the publisher. */
  publish(topic: string, payload: string): void;
  /** Starts hearing `topic`; the returned function stops. Listeners are called in publish order per topic. */
  subscribe(topic: string, listener: (payload: string) => void): () => void;
  /**
   * Resolves once every subscribe and unsubscribe made so far is in effect (on Redis: acknowledged). A
   * subscriber that reads what it missed from the store waits for this first, so that nothing falls
   * between its read and its subscription. While Redis is unreachable it resolves at once: the
   * subscriptions are made again when Redis is back, and until then nothing is heard.
   */
  whenSubscribed(): Promise<void>;
  close(): Promise<void>;
}
