/** How the delivery engine behaves; the defaults are those of docs/reference/events.md, tests shorten the waits. */
export interface DeliverySettings {
  /** How often the worker looks for due events it was not woken for (retries, other processes' events). */
  pollIntervalMs: number;
  connectTimeoutMs: number;
  /** The whole answer (headers and body) must arrive within this; a 2xx within it is success. */
  answerTimeoutMs: number;
  /** A claim's lease; longer than any attempt, so only a crashed worker's claims ever expire. */
  leaseMs: number;
  /**
   * Events of one app in flight at once, at first and whenever its listener is slow or failing: a
   * listener that hangs holds at most this many slots.
   */
  laneConcurrency: number;
  /**
   * How wide an app's lane may grow while its listener keeps answering 2xx within `laneWidenBelowMs`:
   * one slot more per such answer while the lane is at least half busy and more events wait; halved
   * (never below `laneConcurrency`) at a failure worth retrying or a slower answer.
   */
  laneMaxConcurrency: number;
  /**
   * A 2xx within this is fast. 200 ms: a listener across an ocean answers in 100–200 ms, and the time is
   * measured by this process, so it also holds this process's own lag when it is busy (at 50 ms, a
   * loaded server took its own slowness for the listener's and kept every lane narrow).
   */
  laneWidenBelowMs: number;
  /** Events in flight at once in this process, all apps together. */
  globalConcurrency: number;
  /** How many due events of one app the worker reads ahead (unclaimed) in one look at the outbox. */
  readAheadPerApp: number;
  /**
   * Finished attempts are recorded together, in one transaction, at most this long after the first of
   * them (or at once when `recordBatchMax` wait), and their slots refilled at the same moment. Until
   * recorded their events stay leased to this worker.
   */
  recordBatchDelayMs: number;
  recordBatchMax: number;
  /**
   * How often the worker tries a bare connection to each listener that could not be reached (nothing
   * is sent): once one connects, its oldest waiting event goes at once instead of at its retry time.
   */
  listenerProbeIntervalMs: number;
  /** How long a `chat.generateUrlPreview` answer may take; the message is never held back for it. */
  urlPreviewTimeoutMs: number;
  /** How long a person's button press, command or action waits for the listener's answer. */
  clientEventTimeoutMs: number;
}

export const defaultDeliverySettings: DeliverySettings = {
  pollIntervalMs: 250,
  connectTimeoutMs: 5_000,
  answerTimeoutMs: 10_000,
  leaseMs: 60_000,
  laneConcurrency: 4,
  laneMaxConcurrency: 32,
  laneWidenBelowMs: 200,
  globalConcurrency: 512,
  readAheadPerApp: 5_000,
  recordBatchDelayMs: 5,
  recordBatchMax: 500,
  listenerProbeIntervalMs: 5_000,
  urlPreviewTimeoutMs: 5_000,
  clientEventTimeoutMs: 10_000,
};

export function deliverySettings(overrides: Partial<DeliverySettings> = {}): DeliverySettings {
  const settings = { ...defaultDeliverySettings, ...overrides };
  if (settings.leaseMs <= settings.answerTimeoutMs) {
    throw new Error(`event leaseMs (${settings.leaseMs}) must exceed answerTimeoutMs (${settings.answerTimeoutMs}), or live deliveries would be claimed twice`);
  }
  if (settings.laneMaxConcurrency < settings.laneConcurrency) settings.laneMaxConcurrency = settings.laneConcurrency;
  return settings;
}

/** After this long of nothing but failures, an app's asynchronous delivery is paused (docs/reference/events.md). */
export const pauseAfterFailingMs = 3 * 24 * 60 * 60 * 1000;

/** How much of a listener's answer an attempt record keeps. */
export const responseSnippetBytes = 1024;

export const userAgent = 'Aviary-Events/1';
